import { plainLabelPresentation } from '../../carriers/label-presentation.js';
import type { CarrierDefinition } from '../../carriers/types.js';
import {
  createLabelRenderPool,
  labelCarrierParts,
  labelMarks,
  type CustomsDocumentData,
  type LabelData,
  type LabelFormat,
  type LabelRenderPool,
  type LabelRenderPoolOptions,
  type RenderedLabel,
} from '../labels/index.js';
import type { ShipmentAddress, ShipmentRow } from './shipments.tables.js';

/** What the shipments module needs from label rendering (the labels module's pool fits). */
export interface LabelRenderer {
  renderLabel(data: LabelData, format: LabelFormat): Promise<RenderedLabel>;
  /** A shipment's label file: one page per package (the labels module's renderPackageLabels). */
  renderPackageLabels(data: LabelData[], format: LabelFormat): Promise<RenderedLabel>;
  renderCustomsDocument(data: CustomsDocumentData): Promise<RenderedLabel>;
  /** Many labels as one file: a batch's merged label, a print of selected labels. */
  renderLabelSet(data: LabelData[], format: LabelFormat): Promise<RenderedLabel>;
  close(): Promise<void>;
}

/**
 * Render threads for a database engine. Each thread is a V8 isolate of its own with pdfkit,
 * bwip-js and the fonts (~47 MiB resident). On the embedded engine its one connection lets two
 * batch items at a time through, so one thread keeps up with a batch (~100 labels/s there,
 * each label a few ms of rendering); on PostgreSQL the pool's default (a thread per core, at
 * most 4).
 */
export function renderThreads(engine: 'pglite' | 'postgres'): number | undefined {
  return engine === 'pglite' ? 1 : undefined;
}

/**
 * Renders off the event loop (worker threads), started on first use. The app makes one for
 * every label render (purchases, reprints, documents, merged files), so its threads are shared.
 */
export function lazyRenderPool(options: LabelRenderPoolOptions = {}): LabelRenderer {
  let pool: LabelRenderPool | null = null;
  const started = () => (pool ??= createLabelRenderPool(options));
  return {
    renderLabel: (data, format) => started().renderLabel(data, format),
    renderPackageLabels: (data, format) => started().renderPackageLabels(data, format),
    renderCustomsDocument: (data) => started().renderCustomsDocument(data),
    renderLabelSet: (data, format) => started().renderLabelSet(data, format),
    async close() {
      const p = pool;
      pool = null;
      await p?.close();
    },
  };
}

const fallback = { label: plainLabelPresentation() };

/** An address as the label and document renderers take it (absent fields null). */
export function labelAddress(a: ShipmentAddress) {
  return {
    name: a.name ?? null,
    company: a.company ?? null,
    street1: a.street1 ?? null,
    street2: a.street2 ?? null,
    city: a.city ?? null,
    state: a.state ?? null,
    postal_code: a.postal_code ?? null,
    country: a.country,
    phone: a.phone ?? null,
  };
}

/**
 * The label's content, from the stored shipment (so any format can be rendered again later) and
 * its carrier's definition, which says how the carrier's labels look. A shipment whose carrier is
 * no longer registered still renders, with a plain presentation under its slug.
 */
/** The carrier issued the label's image itself (a real carrier's, kept as received); else the platform drew it. */
export function issuedByCarrier(row: Pick<ShipmentRow, 'carrier_label_format'>): boolean {
  return row.carrier_label_format !== null;
}

/**
 * No carrier will take it: a simulated carrier's label in any environment, or a test one. Such
 * labels and documents print SAMPLE (docs/carriers.md, "Labels that cannot be mistaken"), and shipments say `simulated: true`.
 */
export function isSampleShipment(row: Pick<ShipmentRow, 'environment' | 'carrier_driver'>): boolean {
  return row.environment === 'test' || row.carrier_driver === 'simulated';
}

export function labelDataOf(
  row: Pick<
    ShipmentRow,
    | 'id'
    | 'tracking_number'
    | 'carrier'
    | 'service_code'
    | 'service_name'
    | 'rate'
    | 'parcel'
    | 'ship_from'
    | 'ship_to'
    | 'environment'
    | 'carrier_driver'
    | 'status'
  > & { is_return?: boolean; options?: ShipmentRow['options'] },
  carrier: CarrierDefinition | undefined,
  reference: string | null,
): LabelData {
  const shipTo = labelAddress(row.ship_to);
  return {
    shipment_id: row.id,
    tracking_number: row.tracking_number,
    carrier: row.carrier,
    carrier_name: carrier?.name ?? row.carrier,
    service_code: row.service_code,
    service_name: row.service_name,
    zone: row.rate.zone == null ? null : String(row.rate.zone),
    weight_oz: row.parcel.weight_oz,
    ship_date: row.rate.ship_date,
    ship_from: labelAddress(row.ship_from),
    ship_to: shipTo,
    reference,
    sample: isSampleShipment(row),
    voided: row.status === 'voided',
    is_return: row.is_return === true,
    marks: labelMarks(row.options),
    references: row.options?.references ?? [],
    carrier_parts: labelCarrierParts((carrier ?? fallback).label, row.tracking_number, shipTo),
  };
}

/**
 * The label pages of a shipment, one per package: each with the package's own tracking number
 * (barcode and print), its weight and "i of N"; a single-parcel shipment has one page, as ever.
 */
export function packageLabelData(
  row: Parameters<typeof labelDataOf>[0] & { packages?: ShipmentRow['packages'] },
  carrier: CarrierDefinition | undefined,
  reference: string | null,
): LabelData[] {
  const packages = row.packages && row.packages.length > 1 ? row.packages : null;
  if (!packages) return [labelDataOf(row, carrier, reference)];
  return packages.map((p, i) => ({
    ...labelDataOf({ ...row, tracking_number: p.tracking_number, parcel: p.parcel }, carrier, reference),
    piece: { index: i + 1, count: packages.length },
  }));
}
