/**
 * The one interface both kinds of carrier driver implement (docs/carriers.md, "One contract, two
 * drivers"): a carrier's real-protocol (`api`) driver, and its simulated driver made from the
 * folder's rate card and tracking simulation (`simulation/driver.ts`). The platform reaches
 * either only through the carrier gateway, which maps every outcome to the platform's errors
 * once. Inputs are our unified models; outputs are our models plus the carrier's own raw codes
 * where we keep them. The outcomes:
 * - `{ok: true, value}`;
 * - `{ok: false, kind: 'rejected', messages}`: the carrier refused the request on its merits
 *   (422 `carrier_rejected` with the messages as `details`);
 * - `{ok: false, kind: 'invalid_credentials', messages}`: the carrier refused the account's
 *   credentials (422 `carrier_account_invalid`, health `invalid_credentials`);
 * - `{ok: false, kind: 'not_offered', messages}`: the service cannot carry this parcel on this
 *   lane (422 `no_rates`);
 * - `{ok: false, kind: 'too_late', messages}`: the shipment is past the point the carrier
 *   allows the operation (a void after the first scan: 409 `invalid_state`);
 * and transport failures are thrown as a `CarrierError` (`CarrierTransportError` over HTTP).
 */
import type { CarrierHttpClient } from './http/client.js';
import type { CarrierMessage } from './http/errors.js';
import type {
  Address,
  CarrierRate,
  SandboxOptions,
  TrackRequest,
  TrackingMilestone,
  Money,
  Parcel,
  PurchaseRequest,
  RateRequest,
  RateResponse,
  RateUnavailable,
  TrackingEvent,
  TrackingStatus,
} from './types.js';

export type DriverMode = 'sandbox' | 'production';

/** What a driver knows of the account it acts for (credentials already unsealed). */
export interface ApiAccount {
  id: string;
  mode: DriverMode;
  account_number: string | null;
  credentials: Record<string, unknown>;
  /** Overrides the carrier's host (a test double or an egress proxy); validated by the caller. */
  base_url?: string | null;
}

export interface ApiCallContext {
  account: ApiAccount;
  /** Setting `carriers.request_timeout_ms` (default 8000). */
  timeoutMs: number;
  /** Our request id, logged with each exchange. */
  requestId?: string;
}

export type DriverResult<T> =
  | { ok: true; value: T; messages?: CarrierMessage[] }
  | { ok: false; kind: 'rejected'; messages: CarrierMessage[] }
  | { ok: false; kind: 'invalid_credentials'; messages: CarrierMessage[] }
  | { ok: false; kind: 'not_offered'; messages: CarrierMessage[] }
  | { ok: false; kind: 'too_late'; messages: CarrierMessage[] };

/** A charge the carrier itemised that has no `SurchargeCode` of ours: kept, not dropped. */
export interface CarrierCharge {
  carrier_code: string;
  description: string | null;
  amount: Money;
}

/** A rate as a real carrier quotes it: our `CarrierRate` plus what the carrier said verbatim. */
export interface ApiRate extends CarrierRate {
  /** The carrier's own service code (`03`); `service_code` is ours (`ups_ground`) or, for a code we do not know, `<slug>_<raw>`. */
  carrier_service_code: string;
  /** True when `price` is the account's negotiated rate; `list_price` is then the published one. */
  negotiated: boolean;
  list_price: Money;
  /** Itemised charges without a code of ours (their amounts are inside `base_price`). */
  other_charges: CarrierCharge[];
  /** YYYY-MM-DD when the carrier gave one. */
  estimated_delivery_date: string | null;
  /** False when the carrier gave no transit time (then `business_days` is 0). */
  transit_known: boolean;
}

export interface ApiRateRequest extends RateRequest {
  /** Several packages in one shipment; absent = the one `parcel`. */
  parcels?: readonly Parcel[];
}

export interface ApiRateResponse {
  rates: ApiRate[];
  unavailable: RateUnavailable[];
}

/** The carrier's label image formats a driver can ask for. */
export type CarrierLabelImage = 'GIF' | 'PNG' | 'ZPL' | 'PDF';

/** A label exactly as the carrier issued it (base64 decoded), to be stored before anything else. */
export interface LabelArtifact {
  format: CarrierLabelImage;
  mime: string;
  bytes: Buffer;
}

export interface ApiPurchaseRequest extends PurchaseRequest {
  /** Which image the carrier should issue (the driver's units table maps our label_format to it). */
  label_image: CarrierLabelImage;
  parcels?: readonly Parcel[];
}

export interface ApiPurchaseResult {
  tracking_number: string;
  /** The carrier's shipment id (for UPS the first package's tracking number; void uses it). */
  carrier_shipment_id: string;
  /** One per package, in request order. */
  packages: { tracking_number: string; label: LabelArtifact }[];
  /** The first package's label. */
  label: LabelArtifact;
  /** What the carrier charged, when it said. */
  rate: ApiRate | null;
  /**
   * A pickup the carrier booked together with this shipment (DHL Express `dispatchConfirmationNumber`),
   * to be handed back in `ApiVoidRequest.pickup_confirmation`. Absent when none was booked.
   */
  pickup_confirmation?: string | null;
  /**
   * Documents the carrier issued beside the label (DHL Express's waybill document, receipt or
   * commercial invoice), decoded, to be kept with the shipment. Absent when none.
   */
  documents?: ApiCarrierDocument[];
}

/**
 * A purchase as either driver answers it: a real carrier's (`ApiPurchaseResult`), or a simulated
 * one's, which issues no image (`label` null): the platform then draws the label from the
 * carrier's `LabelPresentation`.
 */
export interface PurchaseAnswer extends Omit<ApiPurchaseResult, 'packages' | 'label' | 'rate'> {
  packages: { tracking_number: string; label: LabelArtifact | null }[];
  label: LabelArtifact | null;
  rate: (CarrierRate & { estimated_delivery_date?: string | null }) | null;
}

/** A document a carrier issued with a shipment or a manifest, exactly as received (decoded). */
export interface ApiCarrierDocument {
  /** Ours where one fits (`commercial_invoice`, `waybill`, `receipt`, `scan_form`, `close_report`), else the carrier's own type in snake_case. */
  type: string;
  artifact: LabelArtifact;
}

export interface ApiManifestRequest {
  /** YYYY-MM-DD. */
  ship_date: string;
  /** Where the parcels are tendered (the workspace origin). */
  address: Address;
  shipments: { tracking_number: string; carrier_shipment_id: string | null; service_code: string }[];
}

export interface ApiManifestResult {
  /** The carrier's id of the form or close (USPS SCAN form number, FedEx close confirmation). */
  carrier_manifest_id: string | null;
  /** The form the carrier issued (USPS SCAN form PDF, FedEx close report), when it issued one. */
  document: ApiCarrierDocument | null;
  /** Tracking numbers the carrier left off the form, each with its reason. */
  rejected: { tracking_number: string; message: string; carrier_code?: string }[];
}

export interface ApiVoidRequest {
  carrier_shipment_id: string;
  /** Every package's number (a carrier that voids package by package is told them all); absent: the shipment id's. */
  tracking_numbers?: readonly string[];
  /** The service, and ISO timestamps of the purchase and of now: a simulated carrier decides by them, purely (the platform always sends them). */
  service_code?: string;
  purchased_at?: string;
  now?: string;
  /** Test-environment knobs for simulated carriers; a real carrier ignores them. */
  sandbox?: SandboxOptions;
  /**
   * A pickup booked for this shipment alone (the purchase's `pickup_confirmation`): a carrier
   * without a void of its own (DHL Express) cancels it; others ignore it.
   */
  pickup_confirmation?: string | null;
}

export interface ApiTrackEvent extends TrackingEvent {
  /** The carrier's status type (UPS `I`, `D`, `X`, …) beside `carrier_status_code`. */
  carrier_status_type: string | null;
}

export interface ApiTrackResult {
  status: TrackingStatus;
  status_detail: string;
  /** Oldest first. */
  events: ApiTrackEvent[];
  estimated_delivery_date: string | null;
  delivered_at: string | null;
  carrier_status_code: string | null;
}

/** A journey as either driver reports it: a real carrier's (`ApiTrackResult`) or a simulated one's. */
export interface DriverTrackResult {
  status: TrackingStatus;
  /** Oldest first. */
  events: TrackingEvent[];
  estimated_delivery_date: string | null;
  delivered_at?: string | null;
  /** When the next scan is expected (null: none, the journey is over); absent: unknown, ask on the poll schedule. */
  next_event_at?: string | null;
  /** Expected time of each milestone not reached yet, where the driver promises one. */
  expected_milestones?: Partial<Record<TrackingMilestone, string>>;
}

export type AddressVerdict = 'verified' | 'corrected' | 'unverified' | 'invalid';

export interface ApiAddressValidation {
  status: AddressVerdict;
  residential: 'yes' | 'no' | 'unknown';
  /** The carrier's best candidate (absent when it had none). */
  normalized: Address | null;
  candidates: Address[];
  messages: { code: string; field?: string; message: string }[];
}

export interface ApiPickupRequest {
  /** YYYY-MM-DD local to the pickup address. */
  pickup_date: string;
  /** HHmm local. */
  ready_time: string;
  close_time: string;
  address: Address;
  residential: boolean;
  /** Pieces per service code (ours). */
  pieces: { service_code: string; quantity: number; destination_country: string }[];
  total_weight_oz?: number;
  instructions?: string;
}

export interface ApiPickupResult {
  confirmation: string;
  /** What the carrier charges for it, when it said. */
  charge: Money | null;
}

export interface CarrierDriver {
  carrier: string;
  /**
   * True for a driver that answers in process, without a network (the simulated ones): a read
   * may ask it for the journey so far. A real carrier is never asked on a read; the poll job
   * and a refresh ask it. Absent: false.
   */
  inProcess?: boolean;
  /** JSON Schema 2020-12 of the credentials; secret fields carry `writeOnly: true`. */
  credentialsSchema: Record<string, unknown>;
  hosts: Record<DriverMode, string>;
  /** The image this carrier is asked for, for one of our label formats (`pdf_4x6`, `png_4x6`, `zpl_4x6`, `pdf_letter`). */
  labelImage?(labelFormat: string): CarrierLabelImage;
  /** A real carrier's rates are `ApiRate`s (its own codes and list prices beside ours). */
  rates(ctx: ApiCallContext, request: ApiRateRequest): Promise<DriverResult<RateResponse>>;
  /** Never retried blindly: a transport failure may hide an issued label. */
  purchase(ctx: ApiCallContext, request: ApiPurchaseRequest): Promise<DriverResult<PurchaseAnswer>>;
  /**
   * `refund_review`: the carrier reviews the label's refund before granting it (the simulated
   * carriers play such a review, decided later by the refunds job); absent: granted with the void.
   */
  void(ctx: ApiCallContext, request: ApiVoidRequest): Promise<DriverResult<{ voided: true; refund_review?: boolean }>>;
  /** A real carrier reads only the number; a simulated one plays the journey from the rest. */
  track(ctx: ApiCallContext, request: TrackRequest): Promise<DriverResult<DriverTrackResult>>;
  /** Absent: the driver validates no addresses (the simulated ones). */
  validateAddress?(ctx: ApiCallContext, address: Address): Promise<DriverResult<ApiAddressValidation>>;
  schedulePickup(ctx: ApiCallContext, request: ApiPickupRequest): Promise<DriverResult<ApiPickupResult>>;
  cancelPickup(ctx: ApiCallContext, request: { confirmation: string }): Promise<DriverResult<{ cancelled: true }>>;
  /**
   * End-of-day manifest at the carrier (USPS SCAN form, FedEx Ground close), for carriers whose
   * published API has one; absent otherwise (the platform then prints its own close report).
   */
  manifest?(ctx: ApiCallContext, request: ApiManifestRequest): Promise<DriverResult<ApiManifestResult>>;
  /** Obtains a token (or makes the cheapest authenticated call): health `ok` / `invalid_credentials`. */
  testCredentials(ctx: ApiCallContext): Promise<DriverResult<{ latency_ms: number }>>;
}

/**
 * A carrier's real-protocol driver: the same contract, its answers narrowed to what a real
 * carrier gives (its own codes beside ours, label images always, tracking by the number alone,
 * address validation).
 */
export interface CarrierApiDriver extends CarrierDriver {
  rates(ctx: ApiCallContext, request: ApiRateRequest): Promise<DriverResult<ApiRateResponse>>;
  purchase(ctx: ApiCallContext, request: ApiPurchaseRequest): Promise<DriverResult<ApiPurchaseResult>>;
  track(ctx: ApiCallContext, request: { tracking_number: string }): Promise<DriverResult<ApiTrackResult>>;
  validateAddress(ctx: ApiCallContext, address: Address): Promise<DriverResult<ApiAddressValidation>>;
}

/** How a real-protocol driver is made: one shared HTTP client for the process. */
export type CarrierApiDriverFactory = (http: CarrierHttpClient) => CarrierApiDriver;
