import type { ChannelHttpClient } from '../../channels/http/client.js';
import { getChannelPlatform } from '../../channels/registry.js';
import type { ChannelPlatform } from '../../channels/platform.js';
import type { Channel, ChannelConnection } from '../../channels/types.js';
import { AppError } from '../../platform/errors.js';
import { platformOrigin } from './integrations.connection.js';
import type { IntegrationRow } from './integrations.tables.js';

/**
 * The store platforms of one app over its one channel HTTP client (cost buckets, exchange log,
 * metrics): the only way the module reaches a platform's protocol.
 */
export class ChannelHub {
  private readonly channels = new Map<string, Channel>();

  constructor(private readonly http: ChannelHttpClient) {}

  platform(slug: string): ChannelPlatform {
    const platform = getChannelPlatform(slug);
    if (!platform)
      throw new AppError('validation_failed', `No connector for ${slug}.`, { details: [{ field: 'platform', message: `has no connector: ${slug}` }] });
    return platform;
  }

  channel(slug: string): Channel {
    let channel = this.channels.get(slug);
    if (!channel) {
      channel = this.platform(slug).createChannel(this.http);
      this.channels.set(slug, channel);
    }
    return channel;
  }

  /** How a call reaches this integration's store. */
  connection(row: IntegrationRow, credentials: Record<string, unknown>): ChannelConnection {
    return { integrationId: row.id, storeRef: row.store_ref!, origin: platformOrigin(row), credentials };
  }
}
