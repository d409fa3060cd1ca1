/**
 * OAuth access tokens cached per carrier account: reused until `refreshBeforeMs` before they
 * expire, one fetch in flight per account at a time (concurrent callers share it), and a token
 * the carrier refused (401) is dropped so the next caller fetches a new one, once.
 */
export interface AccessToken {
  accessToken: string;
  /** Lifetime in seconds from when it was fetched. */
  expiresInS: number;
}

interface Entry {
  token: string;
  expiresAt: number;
  /** The carrier account the token was issued for (its secrets are scrubbed of it). */
  owner: string | undefined;
}

export class TokenCache {
  private readonly tokens = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<string>>();
  /** Cache keys by owner (an account's tokens without a walk over every account's). */
  private readonly keysByOwner = new Map<string, Set<string>>();

  constructor(
    private readonly now: () => number,
    private readonly refreshBeforeMs = 60_000,
  ) {}

  /** `owner`: the carrier account the token acts for, so `tokensOf` can list it. */
  async get(key: string, fetchToken: () => Promise<AccessToken>, owner?: string): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached && this.now() < cached.expiresAt - this.refreshBeforeMs) return cached.token;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const started = this.now();
    const p = (async () => {
      try {
        const fresh = await fetchToken();
        // A lifetime shorter than the refresh margin would never be reused: keep it for half of it.
        const lifeMs = Math.max(0, fresh.expiresInS * 1000);
        const expiresAt = started + (lifeMs > this.refreshBeforeMs * 2 ? lifeMs : lifeMs / 2 + this.refreshBeforeMs);
        this.tokens.set(key, { token: fresh.accessToken, expiresAt, owner });
        if (owner !== undefined) {
          const keys = this.keysByOwner.get(owner) ?? new Set<string>();
          keys.add(key);
          this.keysByOwner.set(owner, keys);
        }
        return fresh.accessToken;
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, p);
    return p;
  }

  /** Drops `token` if it is still the cached one (a refused token is never reused). */
  invalidate(key: string, token: string): void {
    if (this.tokens.get(key)?.token === token) this.tokens.delete(key);
  }

  clear(key: string): void {
    this.tokens.delete(key);
  }

  /**
   * The tokens cached for one carrier account, expired ones included (a carrier may still quote
   * them back): what its answers are scrubbed of besides its credentials.
   */
  tokensOf(owner: string): string[] {
    const keys = this.keysByOwner.get(owner);
    if (!keys) return [];
    const out: string[] = [];
    for (const key of keys) {
      const entry = this.tokens.get(key);
      if (entry?.owner === owner) out.push(entry.token);
      else keys.delete(key);
    }
    if (keys.size === 0) this.keysByOwner.delete(owner);
    return out;
  }
}
