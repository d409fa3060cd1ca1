import { ChannelError, type Channel, type ChannelConnection, type OAuthTokens } from '../../channels/types.js';
import type { Deps } from '../../platform/deps.js';
import { sha256Hex } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { secretScrubber, type SecretScrubber } from '../../platform/secret-scrubber.js';
import type { ChannelHub } from './channels.hub.js';
import * as integrationsRepo from './integrations.repo.js';
import type { ActivateJob, IntegrationsService } from './integrations.service.js';
import { ACTIVATE_JOB } from './integrations.service.js';
import type { IntegrationRow } from './integrations.tables.js';

/** Tokens are refreshed when less of their life than this remains (docs/channels.md). */
export const REFRESH_AHEAD_MS = 5 * 60 * 1000;

type Query = Record<string, string | string[] | undefined>;

const invalid = (message: string) => new AppError('oauth_invalid', message, { details: [{ field: 'query', message }] });

/**
 * A connection's credentials as calls need them: opened, and for expiring OAuth tokens
 * refreshed ahead of expiry, the new pair stored (sealed) before it is used, under a row lock
 * so two processes never spend one refresh token twice. Also completes the OAuth install.
 */
export class ChannelCredentials {
  constructor(
    private readonly deps: Deps,
    private readonly hub: ChannelHub,
    private readonly integrations: IntegrationsService,
  ) {}

  /**
   * Cleans what a platform (or a proxy at base_url) sent back of this connection's own secrets
   * before it is stored or shown: an echo of our request must not leak them (the carriers do the same).
   */
  scrubberFor(row: IntegrationRow): SecretScrubber {
    const credentials = row.credentials_sealed ? this.integrations.openCredentials(row) : null;
    return secretScrubber(Object.values(credentials ?? {}).filter((v): v is string => typeof v === 'string'));
  }

  /** The channel and a connection with usable credentials; throws ChannelError unauthorized when a refresh is refused. */
  async open(row: IntegrationRow): Promise<{ channel: Channel; conn: ChannelConnection }> {
    const channel = this.hub.channel(row.platform);
    let credentials = this.integrations.openCredentials(row);
    if (!credentials)
      throw new AppError('invalid_state', 'The integration has no credentials.', { details: [{ field: 'credentials', message: 'are missing' }] });
    if (this.dueForRefresh(credentials)) credentials = await this.refresh(row, channel);
    return { channel, conn: this.hub.connection(row, credentials) };
  }

  private dueForRefresh(credentials: Record<string, unknown>): boolean {
    const expires = typeof credentials.token_expires_at === 'string' ? Date.parse(credentials.token_expires_at) : NaN;
    return typeof credentials.refresh_token === 'string' && Number.isFinite(expires) && expires - this.deps.now().getTime() < REFRESH_AHEAD_MS;
  }

  private async refresh(row: IntegrationRow, channel: Channel): Promise<Record<string, unknown>> {
    return this.deps.db.transaction().execute(async (trx) => {
      const locked = await integrationsRepo.findIntegration(trx, { workspaceId: row.workspace_id, environment: row.environment }, row.id, { forUpdate: true });
      const current = locked ? this.integrations.openCredentials(locked) : null;
      if (!locked || !current) throw new ChannelError(row.platform, 'unauthorized', 'The integration has no credentials.');
      // Another process refreshed while we waited for the lock: use its pair.
      if (!this.dueForRefresh(current)) return current;
      if (!channel.refreshToken) throw new ChannelError(row.platform, 'unauthorized', 'The platform has no token refresh.');
      const tokens = await channel.refreshToken(this.hub.connection(locked, current), {
        clientId: String(current.client_id),
        clientSecret: String(current.client_secret),
        refreshToken: String(current.refresh_token),
      });
      const next = withTokens(current, tokens);
      await integrationsRepo.updateIntegration(
        trx,
        { workspaceId: row.workspace_id, environment: row.environment },
        row.id,
        this.integrations.sealedCredentials(row.id, next),
      );
      return next;
    });
  }

  /**
   * The OAuth callback (docs/channels.md): the single-use state finds the integration and is
   * consumed whatever happens next; the query's hmac and the shop are verified, the code is
   * exchanged, the tokens stored, the connection activated. Returns the integration id.
   */
  async completeOAuth(query: Query): Promise<string> {
    const state = typeof query.state === 'string' ? query.state : '';
    if (state.length < 16) throw invalid('The state is missing.');
    const row = await this.deps.db.transaction().execute((trx) => integrationsRepo.consumeOAuthState(trx, sha256Hex(state)));
    if (!row || !row.oauth_state_expires_at || new Date(row.oauth_state_expires_at).getTime() < this.deps.now().getTime()) {
      throw invalid('The state is unknown, used or expired: start the install again.');
    }
    const credentials = this.integrations.openCredentials(row);
    const channel = this.hub.channel(row.platform);
    if (!channel.verifyOAuthHmac || !channel.exchangeCode) throw invalid('The platform has no OAuth install.');
    if (!credentials || typeof credentials.client_secret !== 'string' || !channel.verifyOAuthHmac(query, credentials.client_secret))
      throw invalid('The hmac does not match.');
    if (typeof query.shop !== 'string' || query.shop.toLowerCase() !== row.store_ref) throw invalid('The shop is not the integration’s store.');
    if (typeof query.code !== 'string' || !query.code) throw invalid('The code is missing.');
    let tokens: OAuthTokens;
    try {
      tokens = await channel.exchangeCode(this.hub.connection(row, credentials), {
        clientId: String(credentials.client_id),
        clientSecret: credentials.client_secret,
        code: query.code,
      });
    } catch (err) {
      if (err instanceof ChannelError) throw invalid(`The platform refused the code (${err.kind}).`);
      throw err;
    }
    const now = this.deps.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const scope = { workspaceId: row.workspace_id, environment: row.environment };
      await integrationsRepo.updateIntegration(trx, scope, row.id, {
        ...this.integrations.sealedCredentials(row.id, withTokens(credentials, tokens)),
        connection_state: 'active',
        connected_at: now,
        scopes: JSON.stringify(tokens.scopes),
        oauth_authorize_url: null,
        failures_reset_at: now,
        updated_at: now,
      });
      await this.deps.jobs.send<ActivateJob>(
        ACTIVATE_JOB,
        { workspace_id: row.workspace_id, environment: row.environment, integration_id: row.id },
        { executor: trx },
      );
    });
    return row.id;
  }
}

/** The credentials with a new token pair (absolute expiry instants, as the channel gives them). */
function withTokens(credentials: Record<string, unknown>, tokens: OAuthTokens): Record<string, unknown> {
  const next: Record<string, unknown> = { ...credentials, access_token: tokens.accessToken };
  for (const [key, value] of [
    ['refresh_token', tokens.refreshToken],
    ['token_expires_at', tokens.expiresAt],
    ['refresh_token_expires_at', tokens.refreshTokenExpiresAt],
  ] as const) {
    if (value) next[key] = value;
    else delete next[key];
  }
  return next;
}
