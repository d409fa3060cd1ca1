import type { ApiCarrierDocument } from '../../carriers/driver.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import type { CustomsDeclaration } from '../../carriers/types.js';
import { AppError } from '../../platform/errors.js';
import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { isCustomsDocumentType, mergeLabelFiles, type CustomsDocumentData, type CustomsDocumentType, type RenderedLabel } from '../labels/index.js';
import { isSampleShipment, labelAddress } from './shipments.labels.js';
import * as repo from './shipments.repo.js';
import type { ShipmentAddress, ShipmentRow } from './shipments.tables.js';

/**
 * Customs documents of a shipment: which ones it needs (pure), what they print,
 * and where they are kept. A document is rendered on its first download (in the label render
 * pool, off the event loop) and kept in shipment_documents, like a label format in
 * shipment_labels: a purchase does not wait for it (label purchase p99 < 50 ms). Documents a
 * carrier issued with the label (DHL Express) are kept there at purchase, as received, and
 * listed beside ours; one of the same type (a carrier's own commercial invoice) takes the place
 * of ours.
 */

/** USPS: a CN 22 up to this declared value (USD cents) and parcel weight (ounces), else a CN 23. */
export const CN22_MAX_VALUE_USD_CENTS = 400_00;
export const CN22_MAX_WEIGHT_OZ = 4 * 16;

/** The postal carrier, whose international parcels carry the UPU forms; the others (couriers) a commercial invoice. */
const POSTAL_CARRIERS = new Set(['usps']);

/**
 * The customs documents the platform prints for a shipment, none without a
 * declaration (a domestic parcel):
 * - USPS: CN 22 when the total declared value is at most 400 USD and the weight at most 4 lb,
 *   else CN 23. The weight is the parcel's, or the items' total when that is more. A value
 *   declared in another currency cannot be compared with 400 USD here, so it gets the CN 23
 *   (never wrong: the CN 23 is accepted for any item).
 * - UPS, FedEx, DHL Express (any non-postal carrier): a commercial invoice, none when the
 *   contents are `documents` (correspondence has no commercial value to declare).
 */
export function customsDocumentTypes(carrier: string, customs: CustomsDeclaration | null | undefined, parcelWeightOz: number): CustomsDocumentType[] {
  if (!customs) return [];
  if (POSTAL_CARRIERS.has(carrier)) {
    const items = customs.items ?? [];
    const allUsd = items.every((i) => i.unit_value.currency.toUpperCase() === 'USD');
    const value = items.reduce((sum, i) => sum + i.unit_value.amount * i.quantity, 0);
    const weight = Math.max(
      Number.isFinite(parcelWeightOz) ? parcelWeightOz : 0,
      items.reduce((sum, i) => sum + i.weight_oz * i.quantity, 0),
    );
    return [allUsd && value <= CN22_MAX_VALUE_USD_CENTS && weight <= CN22_MAX_WEIGHT_OZ ? 'cn22' : 'cn23'];
  }
  return customs.contents_type === 'documents' ? [] : ['commercial_invoice'];
}

type DocumentRow = Pick<
  ShipmentRow,
  | 'id'
  | 'order_id'
  | 'tracking_number'
  | 'carrier'
  | 'service_name'
  | 'rate'
  | 'parcel'
  | 'ship_from'
  | 'ship_to'
  | 'environment'
  | 'carrier_driver'
  | 'price_amount'
  | 'price_currency'
  | 'customs'
>;

/** A party of a customs document: the label's address, with the email a document also prints. */
function party(a: ShipmentAddress) {
  return { ...labelAddress(a), email: a.email ?? null };
}

/** What a document prints, from the stored shipment (so it can be rendered again at any time). */
export function customsDocumentDataOf(
  row: DocumentRow & { customs: CustomsDeclaration },
  type: CustomsDocumentType,
  carrierName: string | undefined,
): CustomsDocumentData {
  return {
    type,
    shipment_id: row.id,
    tracking_number: row.tracking_number,
    carrier_name: carrierName ?? row.carrier,
    service_name: row.service_name,
    date: row.rate.ship_date,
    ship_from: party(row.ship_from),
    ship_to: party(row.ship_to),
    weight_oz: row.parcel.weight_oz,
    postage: { amount: row.price_amount, currency: row.price_currency },
    reference: row.order_id,
    sample: isSampleShipment(row),
    customs: row.customs,
  };
}

/** `pdf`, `png`, `gif`, `zpl` from a stored document's media type. */
export function documentFormat(contentType: string): string {
  const known: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/gif': 'gif', 'application/x-zpl': 'zpl' };
  return known[contentType] ?? 'bin';
}

/**
 * Keeps the documents a carrier issued with a shipment's label (ApiPurchaseResult.documents),
 * as received, in the purchase's transaction (after the shipment row). A document of a type
 * already kept replaces it (a carrier's own invoice is the one that travels).
 */
export async function storeCarrierDocuments(
  db: Executor,
  scope: Scope,
  shipmentId: string,
  documents: readonly ApiCarrierDocument[],
  now: Date,
): Promise<void> {
  for (const d of documents) {
    const type =
      d.type
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '') || 'document';
    await repo.insertDocument(db, {
      shipment_id: shipmentId,
      type,
      workspace_id: scope.workspaceId,
      environment: scope.environment,
      source: 'carrier',
      content_type: d.artifact.mime || 'application/octet-stream',
      body: d.artifact.bytes,
      created_at: now,
    });
  }
}

export interface ShipmentDocumentListItem {
  type: string;
  format: string;
  source: 'platform' | 'carrier';
  url: string;
}

export interface DocumentFile {
  body: Buffer;
  content_type: string;
  filename: string;
}

export function documentUrl(baseUrl: string, shipmentId: string, type: string): string {
  return `${baseUrl}/v1/shipments/${shipmentId}/documents/${type}`;
}

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** The documents of shipments (reads, renders on first download, keeps). */
export class ShipmentDocuments {
  constructor(
    private readonly deps: {
      db: Executor;
      now: () => Date;
      baseUrl: () => string;
      carriers: Promise<CarrierRegistry>;
      log: { warn(obj: object, msg: string): void };
    },
    private readonly render: (data: CustomsDocumentData) => Promise<RenderedLabel>,
  ) {}

  /** The platform's documents for the shipment, then the carrier's of other types. */
  async list(scope: Scope, row: ShipmentRow): Promise<ShipmentDocumentListItem[]> {
    const kept = await repo.listDocuments(this.deps.db, scope, row.id);
    const keptByType = new Map(kept.map((k) => [k.type, k]));
    const ours = customsDocumentTypes(row.carrier, row.customs, row.parcel.weight_oz);
    const item = (type: string, source: 'platform' | 'carrier', contentType: string): ShipmentDocumentListItem => ({
      type,
      format: documentFormat(contentType),
      source,
      url: documentUrl(this.deps.baseUrl(), row.id, type),
    });
    const out = ours.map((type) => {
      const k = keptByType.get(type);
      return k ? item(type, k.source, k.content_type) : item(type, 'platform', 'application/pdf');
    });
    for (const k of kept) if (k.source === 'carrier' && !ours.includes(k.type as CustomsDocumentType)) out.push(item(k.type, 'carrier', k.content_type));
    return out;
  }

  /** One document's file: kept, or rendered now and kept. 404 for a type the shipment does not have. */
  async file(scope: Scope, row: ShipmentRow, type: string): Promise<DocumentFile> {
    const kept = await repo.findDocument(this.deps.db, scope, row.id, type);
    const filename = (ext: string) => `${type}-${row.tracking_number}.${ext}`;
    if (kept) return { body: asBuffer(kept.body), content_type: kept.content_type, filename: filename(documentFormat(kept.content_type)) };
    const ours = customsDocumentTypes(row.carrier, row.customs, row.parcel.weight_oz);
    if (!isCustomsDocumentType(type) || !ours.includes(type) || !row.customs) {
      throw new AppError('not_found', `This shipment has no ${type} document.`, {
        details: [{ field: 'type', message: ours.length ? `one of ${ours.join(', ')}` : 'this shipment has no customs documents' }],
      });
    }
    const carrier = (await this.deps.carriers).get(row.carrier);
    const rendered = await this.render(customsDocumentDataOf({ ...row, customs: row.customs }, type, carrier?.name));
    await repo.insertDocument(this.deps.db, {
      shipment_id: row.id,
      type,
      workspace_id: row.workspace_id,
      environment: row.environment,
      source: 'platform',
      content_type: rendered.content_type,
      body: rendered.body,
      created_at: this.deps.now(),
    });
    return { body: rendered.body, content_type: rendered.content_type, filename: filename('pdf') };
  }

  /** The PDF documents of the shipment, in list order (what a PDF label carries after its page). */
  async pdfs(scope: Scope, row: ShipmentRow): Promise<Buffer[]> {
    const out: Buffer[] = [];
    for (const d of await this.list(scope, row)) {
      if (d.format !== 'pdf') continue;
      out.push((await this.file(scope, row, d.type)).body);
    }
    return out;
  }

  /**
   * A PDF label with the shipment's document pages after its own (the label's pages copied as
   * they are: a carrier's PDF too). The label alone when there are none, or when they cannot be
   * added (a carrier's file that is not a readable PDF): the label still prints.
   */
  async appendToLabel(scope: Scope, row: ShipmentRow, label: Buffer): Promise<Buffer> {
    try {
      const documents = await this.pdfs(scope, row);
      if (documents.length === 0) return label;
      return await mergeLabelFiles([label, ...documents], 'pdf');
    } catch (err) {
      // The label still prints; the documents stay listed and downloadable one by one.
      this.deps.log.warn({ err, shipment_id: row.id }, 'could not add the customs documents to the PDF label');
      return label;
    }
  }

  /** Whether any of these shipments has documents a PDF label would carry. */
  async anyHaveDocuments(scope: Scope, rows: readonly ShipmentRow[]): Promise<boolean> {
    if (rows.some((r) => customsDocumentTypes(r.carrier, r.customs, r.parcel.weight_oz).length > 0)) return true;
    return await repo.anyDocuments(
      this.deps.db,
      scope,
      rows.map((r) => r.id),
    );
  }
}
