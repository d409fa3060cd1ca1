/**
 * The one interface every carrier implements, and the unified models that cross it.
 *
 * Services (rates, shipments, tracking) know carriers only through this file and the registry.
 * A carrier folder imports nothing but these types (and, for the built-in simulated carriers,
 * the shared pure simulation kit in `carriers/simulation/`).
 *
 * Wire conventions are kept: snake_case fields, weights in ounces, lengths in inches, money in
 * integer minor units.
 */

export interface Money {
  /** Integer minor units (cents). */
  amount: number;
  currency: string;
}

export interface Address {
  name?: string;
  company?: string;
  street1?: string;
  street2?: string;
  city?: string;
  state?: string;
  postal_code: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  phone?: string;
  email?: string;
}

export interface Parcel {
  weight_oz: number;
  length_in: number;
  width_in: number;
  height_in: number;
  /**
   * The carrier's own packaging the parcel travels in (an id of `CarrierDefinition.packages`):
   * its flat-rate services price it flat; another carrier cannot carry it. Absent: the
   * shipper's own box.
   */
  package_id?: string;
}

/**
 * A carrier's own packaging (flat-rate boxes, envelopes, paks), as data in its folder
 * (`packages.ts`). Dimensions are what the carrier publishes (inside, inches); a flat-rate
 * service charges `flat_rates[service_code]` whatever the weight up to `max_weight_oz`.
 */
export interface CarrierPackage {
  /** `<carrier slug>_<name>`, e.g. `usps_medium_flat_rate_box`. */
  id: string;
  name: string;
  length_in: number;
  width_in: number;
  height_in: number;
  max_weight_oz: number;
  /** Flat price per service (minor units, USD); services not listed price it by weight and size. */
  flat_rates: Readonly<Record<string, number>>;
  /** The carrier API's packaging code the api driver sends. */
  carrier_code: string;
}

export type CountryGroup = 'ca_mx' | 'europe' | 'asia_pacific' | 'rest_of_world';

/**
 * Facts about the lane that the platform derives from its reference data (ZIP centroids,
 * country groups). Real carrier APIs compute these themselves and a driver for one may ignore
 * them; the simulated carriers have no server of their own, so the platform supplies them and
 * each carrier's rate card picks the zoning scheme it uses.
 */
export interface RouteFacts {
  /** Both ends in the same country (US territories and military count as US). */
  domestic: boolean;
  origin_country: string;
  destination_country: string;
  /** Great-circle distance between ZIP3 centroids, US domestic only. */
  distance_miles: number | null;
  /** UPS/FedEx-style zone 2–8, US domestic only. */
  ground_zone: number | null;
  /** Country group of the far end for international lanes. */
  international_group: CountryGroup | null;
  /** International zone 1–4 (ca_mx, europe, asia_pacific, rest_of_world). */
  international_zone: number | null;
  /** US territory (PR, GU, VI, AS, MP, FM, MH, PW) at either end. */
  territory: boolean;
  /** Military APO/FPO/DPO (AA, AE, AP) at either end. */
  military: boolean;
  /** Alaska, Hawaii, a territory or military at either end: no ground network reaches it. */
  noncontiguous: boolean;
}

/** Who must sign for the parcel. */
export type SignatureOption = 'none' | 'standard' | 'adult';

/** Dangerous goods a parcel may carry, as the carriers' hazmat programmes class them. */
export const DANGEROUS_GOODS_CATEGORIES = [
  'lithium_ion_in_equipment',
  'lithium_ion_with_equipment',
  'lithium_metal_in_equipment',
  'limited_quantity_ground',
  'dry_ice',
] as const;
export type DangerousGoodsCategory = (typeof DANGEROUS_GOODS_CATEGORIES)[number];

/**
 * What a parcel needs on its way (docs/carriers.md, "Shipment options"), defaults applied:
 * the platform checks them against the service's `ServiceOptions` before a carrier is asked.
 */
export interface ShipmentOptions {
  signature: SignatureOption;
  saturday_delivery: boolean;
  /** Declared value the carrier insures; null: the carrier's own liability only. */
  insurance: { amount: Money } | null;
  dangerous_goods: { category: DangerousGoodsCategory; dry_ice_weight_oz?: number } | null;
  /** Up to two, each ≤ 35 characters; printed on the label. */
  references: string[];
  /** ≤ 120 characters; null: none. */
  delivery_instructions: string | null;
}

/** The option a service may lack (the `option` of an option_unavailable message). */
export type OptionName = 'signature' | 'adult_signature' | 'saturday_delivery' | 'insurance' | 'dangerous_goods' | 'parcels';

/**
 * What one service offers, from its carrier's options table (one per carrier folder, the same
 * table the platform checks requests against and GET /v1/carrier-types publishes).
 */
export interface ServiceOptions {
  signature: boolean;
  adult_signature: boolean;
  saturday_delivery: boolean;
  /** The largest declared value it insures; null: no insurance. */
  insurance_max: Money | null;
  dangerous_goods: readonly DangerousGoodsCategory[];
  /** Pieces in one shipment (1: no multi-piece). */
  max_parcels: number;
}

export interface RateRequest {
  ship_from: Address;
  ship_to: Address;
  parcel: Parcel;
  /** YYYY-MM-DD. */
  ship_date: string;
  residential: boolean;
  /** Only these service codes; absent = all of the carrier's services. */
  service_codes?: readonly string[];
  route: RouteFacts;
  /** What the parcel needs; absent = none. A carrier prices each option it offers as a surcharge. */
  options?: ShipmentOptions;
  /**
   * A multi-piece shipment: every piece, `parcel` being the first (docs/carriers.md,
   * "Multi-piece shipments"); absent = the one `parcel`.
   */
  parcels?: readonly Parcel[];
}

export type SurchargeCode =
  'fuel' | 'residential' | 'additional_handling' | 'oversize' | 'remote_area' | 'nonstandard_length' | 'nonstandard_volume' | OptionSurchargeCode;

/** A shipment option's cost in a rate's breakdown (a free option adds no entry). */
export type OptionSurchargeCode = 'signature' | 'adult_signature' | 'saturday_delivery' | 'insurance' | 'dangerous_goods';

export interface Surcharge {
  code: SurchargeCode;
  amount: Money;
}

export type DimDivisorUnit = 'in3_per_lb' | 'cm3_per_kg';

/** One priced service, as the carrier quotes it (the platform adds ids, dates and tags). */
export interface CarrierRate {
  service_code: string;
  service_name: string;
  zone: number;
  base_price: Money;
  surcharges: Surcharge[];
  /** base_price + sum(surcharges). */
  price: Money;
  billable_weight_oz: number;
  /** Null when DIM weight does not apply to this service/parcel. */
  dim_weight_oz: number | null;
  dim_divisor: number | null;
  dim_divisor_unit: DimDivisorUnit | null;
  /** Transit time in the carrier's business days, from the tender date. */
  business_days: number;
  guaranteed: boolean;
  rate_table_version: string;
}

/** A service that cannot carry this parcel on this lane, with a normalised reason. */
export interface RateUnavailable {
  service_code: string;
  reason: string;
}

export interface RateResponse {
  rates: CarrierRate[];
  unavailable: RateUnavailable[];
}

/** What a parcel holds, as customs forms classify it. */
export type CustomsContentsType = 'merchandise' | 'gift' | 'documents' | 'sample' | 'return_merchandise' | 'humanitarian_donation' | 'other';

/**
 * Words that say nothing about what an item is: alone (any case, singular or
 * plural) they are refused as an item's description, by the platform and by every carrier.
 */
export const VAGUE_CUSTOMS_DESCRIPTIONS: ReadonlySet<string> = new Set([
  'gift',
  'gifts',
  'merchandise',
  'goods',
  'good',
  'items',
  'item',
  'stuff',
  'misc',
  'misc.',
  'miscellaneous',
  'various',
  'parts',
  'part',
  'sample',
  'samples',
]);

export interface CustomsItem {
  /** 3–50 characters, specific ("cotton T-shirt", never "merchandise"). */
  description: string;
  quantity: number;
  /** Value of one unit. */
  unit_value: Money;
  /** Weight of one unit, in ounces. */
  weight_oz: number;
  /** HS tariff number, 6–10 digits (dots removed). */
  hs_tariff_number?: string | null;
  /** ISO 3166-1 alpha-2 country of manufacture. */
  origin_country: string;
  sku?: string | null;
}

export interface CustomsImporter {
  tax_id?: string | null;
  eori?: string | null;
  ioss?: string | null;
  vat?: string | null;
}

/**
 * A customs declaration as the platform validated it: defaults applied,
 * `eel_pfc` derived when it was absent. Carriers receive it on purchase of a parcel that
 * crosses a border (or goes to a US military address) and send it in their own fields.
 */
export interface CustomsDeclaration {
  contents_type: CustomsContentsType;
  /** Required when `contents_type` is `other`. */
  contents_explanation?: string | null;
  non_delivery: 'return' | 'abandon';
  incoterm: 'DDU' | 'DDP' | 'DAP';
  /** `NOEEI 30.37(a)`, `NOEEI 30.36`, … (derived when absent). */
  eel_pfc?: string | null;
  /** AES Internal Transaction Number: `X` + 14 digits. */
  aes_itn?: string | null;
  /** The certifying person's name. */
  signer?: string | null;
  importer?: CustomsImporter | null;
  items: CustomsItem[];
  /** True when the platform built it from the order's line items. */
  derived?: boolean;
}

export interface PurchaseRequest {
  service_code: string;
  ship_from: Address;
  ship_to: Address;
  parcel: Parcel;
  ship_date: string;
  residential: boolean;
  route: RouteFacts;
  /**
   * A stable caller reference (the shipment id). The simulated carriers derive the tracking
   * number from it, so a retried purchase with the same reference gets the same number.
   */
  reference: string;
  /** ISO timestamp of the purchase. */
  purchased_at: string;
  /** Present when the parcel needs customs (validated, defaults applied); absent otherwise. */
  customs?: CustomsDeclaration | null;
  /**
   * A return label: `ship_from` is the customer sending the parcel back and
   * `ship_to` the merchant. Real carriers are asked for their own return label (UPS print return
   * label, FedEx PRINT_RETURN_LABEL, USPS return label, DHL Express a return billed to the
   * merchant's account); absent or false: an ordinary outbound label.
   */
  is_return?: boolean;
  /** What the parcel needs (checked against the service's offer before the carrier is asked); absent = none. */
  options?: ShipmentOptions;
  /** A multi-piece shipment: every piece, `parcel` being the first; absent = the one `parcel`. */
  parcels?: readonly Parcel[];
}

export type PurchaseResult =
  | {
      ok: true;
      /** The master: the first package's. */
      tracking_number: string;
      /** One per piece of a multi-piece purchase, in the order given (the first is the master); absent = one package. */
      package_tracking_numbers?: string[];
      rate: CarrierRate;
      purchased_at: string;
    }
  | {
      ok: false;
      reason: string;
      /**
       * True when the carrier refused the request on its merits (a customs declaration it will
       * not accept, say: 422 carrier_rejected), not because the service cannot carry the parcel
       * on the lane (422 no_rates).
       */
      rejected?: boolean;
      /** The request field the refusal is about (`customs.items[0].description`), when it names one. */
      field?: string;
    };

export interface VoidRequest {
  tracking_number: string;
  service_code: string;
  purchased_at: string;
  /** ISO timestamp of "now", so the simulation stays pure. */
  now: string;
  /** Test-environment knobs for simulated carriers; a real carrier ignores them. */
  sandbox?: SandboxOptions;
}

/**
 * Outcomes a simulated carrier can be asked to play (magic values in the recipient name or the
 * order notes, `SANDBOX:<scenario>`): `normal` delivers on the estimated date; `exception` fails
 * delivery on that day (address not found); `return_to_sender` turns back on that day and is
 * delivered back to the sender two weekdays later; `delivered` scans everything at purchase;
 * `unused` never scans the parcel (a label never handed over: an unused return label).
 */
export type SandboxScenario = 'normal' | 'exception' | 'return_to_sender' | 'delivered' | 'unused';

export interface SandboxOptions {
  /** Simulated seconds per real second (1 = real time; 3600 = an hour per second). */
  time_scale: number;
  scenario: SandboxScenario;
}

export type VoidResult = { ok: true } | { ok: false; reason: string };

export type TrackingStatus =
  'pre_transit' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'available_for_pickup' | 'return_to_sender' | 'failure' | 'cancelled' | 'unknown';

export type TrackingMilestone = 'label_created' | 'picked_up' | 'in_transit' | 'out_for_delivery' | 'delivered';

export interface TrackingLocation {
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
}

export interface TrackingEvent {
  occurred_at: string;
  status: TrackingStatus;
  /** Reason code, e.g. `label_created`, `arrived_at_facility`. */
  status_detail: string;
  milestone: TrackingMilestone;
  description: string;
  location: TrackingLocation;
  /** The carrier's own status code (simulated). */
  carrier_status_code: string;
}

export interface TrackRequest {
  tracking_number: string;
  service_code: string;
  purchased_at: string;
  /** YYYY-MM-DD the platform promised at purchase. */
  estimated_delivery_date: string;
  ship_from: Address;
  ship_to: Address;
  now: string;
  /** Test-environment knobs for simulated carriers; a real carrier ignores them. */
  sandbox?: SandboxOptions;
  /** The package's place in a multi-piece shipment (0 = the master); absent = 0. */
  piece?: number;
}

export interface TrackResult {
  status: TrackingStatus;
  /** Oldest first; only events that happened at or before `now`. */
  events: TrackingEvent[];
  estimated_delivery_date: string;
  /**
   * When the carrier expects its next scan (null: none expected, the journey is over). Lets the
   * platform skip asking again before then; absent = unknown (ask again on the poll interval).
   */
  next_event_at?: string | null;
  /** Expected time of each milestone not reached yet, where the carrier promises one. */
  expected_milestones?: Partial<Record<TrackingMilestone, string>>;
}

/**
 * Federal holidays a carrier may observe (keys the platform's delivery calendar understands).
 */
export type UsHoliday =
  | 'new_years_day'
  | 'mlk_day'
  | 'washingtons_birthday'
  | 'memorial_day'
  | 'juneteenth'
  | 'independence_day'
  | 'labor_day'
  | 'columbus_day'
  | 'veterans_day'
  | 'thanksgiving_day'
  | 'christmas_day';

export interface ServiceInfo {
  /** `<carrier slug>_<service>`. */
  code: string;
  name: string;
  /** Carries US-domestic (or, for DHL, in-country non-US) parcels. */
  domestic: boolean;
  international: boolean;
  guaranteed: boolean;
  /**
   * The service a return of this one is bought with when the return names none (absent: the
   * same service). A service that delivers only to homes cannot bring a parcel back to a
   * business, so it names the carrier's return-capable one.
   */
  return_service_code?: string;
  /** The options the service offers (its carrier's options table); absent: none, one parcel. */
  options?: ServiceOptions;
}

export interface CarrierCapabilities {
  rate: boolean;
  purchase: boolean;
  void: boolean;
  track: boolean;
}

/**
 * What a carrier can do. An operation the carrier does not support is declared false in
 * `capabilities` and left out here, never a method that throws at runtime.
 */
export interface CarrierAdapter {
  /** Price every requested service that can carry the parcel; list the others as unavailable. */
  rate?(request: RateRequest): Promise<RateResponse>;
  /** Buy a label; business rejections come back as `{ok: false, reason}`. */
  purchase?(request: PurchaseRequest): Promise<PurchaseResult>;
  /** Cancel a label; allowed only before the carrier's first scan. */
  void?(request: VoidRequest): Promise<VoidResult>;
  /** Tracking events up to `now`. */
  track?(request: TrackRequest): Promise<TrackResult>;
}

/**
 * What a label's barcode encodes. `code128`: the text as is. `gs1-128`: GS1 element strings
 * (application identifier + data), which a scanner returns joined by FNC1 (ASCII 29).
 */
export type LabelBarcodeSpec = { symbology: 'code128'; text: string } | { symbology: 'gs1-128'; elements: ReadonlyArray<{ ai: string; data: string }> };

/** How a shipment looks on this carrier's labels (pure; the platform draws every format). */
export interface LabelPresentation {
  /** The line above the barcode, as the carrier titles it ("UPS TRACKING #"). */
  heading: string;
  /** The routing code printed large above the barcode (e.g. `420 10118`). */
  routingCode(shipTo: Address): string;
  /** What the barcode encodes. */
  barcode(trackingNumber: string, shipTo: Address): LabelBarcodeSpec;
  /** The tracking number as printed under the barcode (grouped, e.g. `1Z 999 AA1 01 2345 6784`). */
  displayTrackingNumber(trackingNumber: string): string;
}

/**
 * What a carrier offers at the end of the day, as data in its folder
 * (`end-of-day.ts`). An offer left out (null, or the whole field absent) is declared
 * unsupported: a request for it is 422 `capability_unavailable` naming the capability.
 */
export interface EndOfDayOffer {
  /** The form the platform prints when the carrier's API issues none: USPS a SCAN form (PS Form 5630), others a close report. */
  manifest: 'scan_form' | 'close_report' | null;
  /** Scheduled pickups: the simulated fee per pickup, and how long before the window starts a pickup can still be cancelled. */
  pickup: { fee: Money; cancel_cutoff_minutes: number } | null;
}

/** What each `src/carriers/<slug>/index.ts` exports as `carrier`. */
export interface CarrierDefinition {
  slug: string;
  name: string;
  rate_table_version: string;
  services: readonly ServiceInfo[];
  capabilities: CarrierCapabilities;
  /** Holidays on which the carrier neither picks up nor delivers. */
  observed_holidays: readonly UsHoliday[];
  /** Manifests and pickups (absent: neither is offered). */
  end_of_day?: EndOfDayOffer;
  /** The carrier's own packaging (absent: none). */
  packages?: readonly CarrierPackage[];
  /** Checks a tracking number's format and check digit. */
  isValidTrackingNumber(trackingNumber: string): boolean;
  /** Heading, routing code, barcode and printed tracking number of its labels. */
  label: LabelPresentation;
  adapter: CarrierAdapter;
  /**
   * Return labels: how the carrier bills them, in order of preference (the
   * first is the default). `on_scan`: nothing is charged until the first scan; `on_creation`:
   * charged when the label is made. Absent: the carrier sells no return labels.
   */
  return_charges?: readonly ('on_scan' | 'on_creation')[];
  /** Days after purchase within which the carrier accepts a void and refunds the label (absent: no limit). */
  void_window_days?: number;
}

/**
 * A transport failure talking to a carrier (timeout, 5xx, malformed reply). Business
 * rejections are not errors: they come back as normalised `reason`s.
 */
export class CarrierError extends Error {
  readonly slug: string;
  readonly carrierCode: string;
  readonly retryable: boolean;

  constructor(slug: string, carrierCode: string, message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'CarrierError';
    this.slug = slug;
    this.carrierCode = carrierCode;
    this.retryable = options.retryable;
  }
}
