import type { ComponentType } from 'react';
import { SignIn } from './pages/SignIn';
import { Register } from './pages/Register';
import { Orders } from './pages/Orders';
import { OrderDetail } from './pages/OrderDetail';
import { OrderForm } from './pages/OrderForm';
import { Rates } from './pages/Rates';
import { Integrations } from './pages/Integrations';
import { IntegrationEdit } from './pages/IntegrationEdit';
import { ApiKeys } from './pages/ApiKeys';
import { Team } from './pages/Team';
import { Carriers } from './pages/Carriers';
import { CarrierAccountDetail } from './pages/CarrierAccountDetail';
import { AdminAccounts } from './pages/AdminAccounts';
import { AdminWorkspaces } from './pages/AdminWorkspaces';
import { Shipments } from './pages/Shipments';
import { Refunds } from './pages/Refunds';
import { ShipmentDetail } from './pages/ShipmentDetail';
import { AdminSettings } from './pages/AdminSettings';
import { AdminAudit } from './pages/AdminAudit';
import { AdminAnalytics } from './pages/AdminAnalytics';
import { AdminOfficeRedeem } from './pages/AdminOfficeRedeem';
import { Track } from './pages/Track';
import { Redeem } from './pages/Redeem';
import { Batches } from './pages/Batches';
import { BatchDetail } from './pages/BatchDetail';
import { Webhooks } from './pages/Webhooks';
import { Rules } from './pages/Rules';
import { EndOfDay } from './pages/EndOfDay';
import { Trackers } from './pages/Trackers';
import { Packages } from './pages/Packages';
import { Locations } from './pages/Locations';
import { WebhookDetail } from './pages/WebhookDetail';
import { WebhookDeadLetters, WebhookDeliveries } from './pages/WebhookDeliveries';
import { WebhookDeliveryDetail } from './pages/WebhookDeliveryDetail';
import { ShipFrom } from './pages/ShipFrom';
import { AcceptInvitation, ForgotPassword, ResetPassword } from './pages/AccountLinks';

import type { PageProps } from './page-props';

export type { PageProps };

export interface RouteEntry {
  path: string;
  title: string;
  page: ComponentType<PageProps>;
  /** public: anyone, no chrome; guest: signed-out pages; user / super_admin: inside the shell. */
  access: 'public' | 'guest' | 'user' | 'super_admin';
  /** Shown in the navigation under this label. */
  nav?: string;
  /** The workspace role the page's work needs; below it the page is left out of the navigation. */
  role?: 'operator' | 'admin';
  /** A guest page a signed-in visitor may open too (an invitation: accepted with the session). */
  signedInToo?: boolean;
}

/** Every page: one file under pages/ plus one line here. The first match wins. */
export const routes: RouteEntry[] = [
  { path: '/dashboard/login', title: 'Sign in', page: SignIn, access: 'guest' },
  { path: '/dashboard/register', title: 'Create an account', page: Register, access: 'guest' },
  { path: '/dashboard/forgot-password', title: 'Reset your password', page: ForgotPassword, access: 'guest' },
  { path: '/dashboard/reset-password/:code', title: 'Choose a new password', page: ResetPassword, access: 'guest' },
  { path: '/dashboard/invitations/:code', title: 'Join a workspace', page: AcceptInvitation, access: 'guest', signedInToo: true },
  { path: '/dashboard/orders', title: 'Orders', page: Orders, access: 'user', nav: 'Orders' },
  { path: '/dashboard/orders/new', title: 'New order', page: OrderForm, access: 'user' },
  { path: '/dashboard/orders/:id/edit', title: 'Edit order', page: OrderForm, access: 'user' },
  { path: '/dashboard/orders/:id', title: 'Order', page: OrderDetail, access: 'user' },
  { path: '/dashboard/shipments', title: 'Shipments', page: Shipments, access: 'user', nav: 'Shipments' },
  { path: '/dashboard/shipments/:id', title: 'Shipment', page: ShipmentDetail, access: 'user' },
  { path: '/dashboard/refunds', title: 'Refunds', page: Refunds, access: 'user', nav: 'Refunds' },
  { path: '/dashboard/batches', title: 'Batches', page: Batches, access: 'user', nav: 'Batches' },
  { path: '/dashboard/batches/:id', title: 'Batch', page: BatchDetail, access: 'user' },
  { path: '/dashboard/ship-from', title: 'Ship from', page: ShipFrom, access: 'user', nav: 'Ship from' },
  { path: '/dashboard/end-of-day', title: 'End of day', page: EndOfDay, access: 'user', nav: 'End of day' },
  { path: '/dashboard/trackers', title: 'Trackers', page: Trackers, access: 'user', nav: 'Trackers' },
  { path: '/dashboard/packages', title: 'Packages', page: Packages, access: 'user', nav: 'Packages' },
  { path: '/dashboard/locations', title: 'Locations', page: Locations, access: 'user', nav: 'Locations' },
  { path: '/dashboard/rates', title: 'Rate calculator', page: Rates, access: 'user', nav: 'Rates' },
  { path: '/dashboard/integrations', title: 'Integrations', page: Integrations, access: 'user', nav: 'Integrations', role: 'admin' },
  { path: '/dashboard/integrations/:id', title: 'Integration', page: IntegrationEdit, access: 'user' },
  { path: '/dashboard/webhooks', title: 'Webhooks', page: Webhooks, access: 'user', nav: 'Webhooks', role: 'admin' },
  // Before /dashboard/webhooks/:id, which would take "deliveries" and "dead-letters" for ids.
  { path: '/dashboard/webhooks/deliveries', title: 'Webhook deliveries', page: WebhookDeliveries, access: 'user' },
  { path: '/dashboard/webhooks/deliveries/:id', title: 'Webhook delivery', page: WebhookDeliveryDetail, access: 'user' },
  { path: '/dashboard/webhooks/dead-letters', title: 'Dead letters', page: WebhookDeadLetters, access: 'user' },
  { path: '/dashboard/webhooks/:id', title: 'Webhook endpoint', page: WebhookDetail, access: 'user' },
  { path: '/dashboard/carriers', title: 'Carriers', page: Carriers, access: 'user', nav: 'Carriers', role: 'admin' },
  { path: '/dashboard/carriers/:id', title: 'Carrier account', page: CarrierAccountDetail, access: 'user' },
  { path: '/dashboard/rules', title: 'Shipping rules', page: Rules, access: 'user', nav: 'Rules', role: 'admin' },
  { path: '/dashboard/team', title: 'Team', page: Team, access: 'user', nav: 'Team' },
  { path: '/dashboard/api-keys', title: 'API keys', page: ApiKeys, access: 'user', nav: 'API keys', role: 'admin' },
  { path: '/dashboard/admin/accounts', title: 'Accounts', page: AdminAccounts, access: 'super_admin', nav: 'Accounts' },
  { path: '/dashboard/admin/workspaces', title: 'Workspaces & plans', page: AdminWorkspaces, access: 'super_admin', nav: 'Workspaces' },
  { path: '/dashboard/admin/settings', title: 'Settings', page: AdminSettings, access: 'super_admin', nav: 'Settings' },
  { path: '/dashboard/admin/audit-log', title: 'Audit log', page: AdminAudit, access: 'super_admin', nav: 'Audit log' },
  { path: '/dashboard/admin/analytics', title: 'Analytics', page: AdminAnalytics, access: 'super_admin', nav: 'Analytics' },
  { path: '/dashboard/admin/office-redeem', title: 'Office redeem', page: AdminOfficeRedeem, access: 'super_admin', nav: 'Office redeem' },
  { path: '/track/:trackingNumber', title: 'Track a parcel', page: Track, access: 'public' },
  { path: '/redeem', title: 'Redeem a PIN', page: Redeem, access: 'public' },
];
