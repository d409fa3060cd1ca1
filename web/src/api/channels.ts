import { api, askedOnce, call, type Schemas } from './client';

export type ChannelType = Schemas['ChannelType'];

/**
 * The store platforms the service found (GET /api/admin/channel-types): each one's store
 * reference, credentials and settings hint, so the connect form is drawn from them and a new
 * platform folder shows up in the dashboard with no edit. Asked once per page load; a failed
 * answer is forgotten, so the next page asks again.
 */
export const channelTypes: () => Promise<ChannelType[]> = askedOnce(() => call(api.GET('/api/admin/channel-types')).then((r) => r.data));

/** Integrations that push orders with their ingest key: no connector, so no channel type. */
export const CUSTOM_PLATFORM = 'custom';

/**
 * `platform` as the generated types spell it: the platforms of the build that wrote them. The
 * dashboard offers what the running service lists, which the service checks again.
 */
export type IntegrationPlatform = Schemas['Integration']['platform'];
