/**
 * The store platforms the service speaks, listed by hand: a platform is a product decision
 * (credentials forms, OAuth, defaults), not a folder dropped in, and the list is short.
 */
import type { ChannelPlatform, ChannelPlatformSlug } from './platform.js';
import { bigcommerce } from './bigcommerce/index.js';
import { shopify } from './shopify/index.js';
import { woocommerce } from './woocommerce/index.js';

export const CHANNEL_PLATFORMS: readonly ChannelPlatform[] = [shopify, woocommerce, bigcommerce];

export function getChannelPlatform(slug: string): ChannelPlatform | undefined {
  return CHANNEL_PLATFORMS.find((p) => p.slug === (slug as ChannelPlatformSlug));
}
