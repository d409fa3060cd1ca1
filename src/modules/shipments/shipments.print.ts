import type { Deps } from '../../platform/deps.js';
import type { Scope } from '../../platform/context.js';
import { AppError, invalidState, validationError, type ErrorDetail } from '../../platform/errors.js';
import { mergeLabelFiles, renderPackingSlip, type LabelFormat } from '../labels/index.js';
import { packingSlipOf, type OrdersService } from '../orders/index.js';
import * as repo from './shipments.repo.js';
import type { LabelFormatCode } from './shipments.schemas.js';
import type { ShipmentsService } from './shipments.service.js';
import type { LabelFile } from './shipments.label-files.js';
import type { LabelRenderer } from './shipments.labels.js';

/** Labels in one print file (POST /v1/labels/merge): what an operator selects on a page of the dashboard, at most. */
export const MAX_PRINT_LABELS = 100;

/** A label that no carrier will take any more: printing it could put a dead tracking number on a box. */
const UNPRINTABLE = ['voided', 'expired'] as const;

export interface PrintLabelsInput {
  shipment_ids: string[];
  format?: LabelFormatCode;
  packing_slips?: boolean;
}

const EXTENSION: Record<'pdf' | 'zpl', string> = { pdf: 'pdf', zpl: 'zpl' };

/**
 * Many shipments' labels as one file: a batch's merged label (GET /v1/batches/:id/label) and a
 * print of selected labels (POST /v1/labels/merge) are the same file, made here. Renders off the
 * event loop, on the renderer the app shares with every other label render.
 */
export class LabelPrints {
  constructor(
    private readonly deps: Deps,
    private readonly shipments: Pick<ShipmentsService, 'label' | 'mergeSources'>,
    private readonly orders: Pick<OrdersService, 'getOrder'>,
    private readonly renderer: Pick<LabelRenderer, 'renderLabelSet'>,
  ) {}

  /**
   * One file of these shipments' labels, in the order given, every package's page. Labels a
   * carrier issued, or PDF labels that carry customs documents after their page, are each
   * shipment's own file merged in order (a carrier label that cannot be made into `format`
   * without loss is 422 label_format_unavailable naming the shipment); the rest one render of
   * the whole set. Ids of another scope are left out: callers check them first. `format` is a
   * multi-page one (PNG holds one label: callers ask for the 4x6 PDF instead).
   */
  async mergedFile(
    scope: Scope,
    shipmentIds: readonly string[],
    format: Exclude<LabelFormat, 'png_4x6'>,
    formatField = 'label_format',
  ): Promise<{ body: Buffer; content_type: string }> {
    const sources = await this.shipments.mergeSources(scope, shipmentIds, format !== 'zpl_4x6');
    if (sources.own_files) {
      const files = [];
      for (const id of shipmentIds) files.push(await this.shipmentFile(scope, id, format, formatField));
      return this.merged(files, format);
    }
    const { data } = sources;
    if (data.length === 0) throw new AppError('not_found', 'No labels to print.');
    const rendered = await this.renderer.renderLabelSet(data, format);
    return { body: rendered.body, content_type: rendered.content_type };
  }

  /**
   * POST /v1/labels/merge: the selected shipments' labels as one file, in the order given.
   * Refused whole, before anything is rendered: a repeated id (400, so no parcel gets two
   * labels), an id not of this workspace and environment (404), a voided or expired label (409
   * invalid_state). With `packing_slips`, each order's packing slip follows its first label.
   */
  async print(scope: Scope, input: PrintLabelsInput): Promise<LabelFile> {
    const ids = input.shipment_ids;
    const format = input.format ?? 'pdf_4x6';
    const problems: ErrorDetail[] = [];
    if (format === 'png_4x6') problems.push({ field: 'format', message: 'a PNG holds one label; ask for pdf_4x6, pdf_letter or zpl_4x6' });
    if (input.packing_slips && format === 'zpl_4x6')
      problems.push({ field: 'packing_slips', message: 'packing slips are PDF pages; ask for pdf_4x6 or pdf_letter' });
    const first = new Map<string, number>();
    ids.forEach((id, i) => {
      const earlier = first.get(id);
      if (earlier === undefined) first.set(id, i);
      else problems.push({ field: `shipment_ids[${i}]`, message: `repeats shipment_ids[${earlier}] (${id}); each label prints once` });
    });
    if (problems.length || format === 'png_4x6') throw validationError(problems.slice(0, 20));

    const rows = new Map((await repo.findShipmentsByIds(this.deps.db, scope, ids)).map((r) => [r.id, r]));
    const missing = ids.filter((id) => !rows.has(id));
    if (missing.length) {
      throw new AppError('not_found', `No such shipment: ${missing.join(', ')}.`, {
        details: missing
          .slice(0, 20)
          .map((id) => ({ field: `shipment_ids[${ids.indexOf(id)}]`, message: `no shipment ${id} in this workspace and environment` })),
      });
    }
    const dead = ids.filter((id) => (UNPRINTABLE as readonly string[]).includes(rows.get(id)!.status));
    if (dead.length) {
      const status = rows.get(dead[0])!.status;
      throw invalidState(
        `Shipment ${dead.join(', ')} is ${dead.length > 1 ? 'voided or expired' : status}; a label no carrier takes is not printed. Leave it out of the selection.`,
        {
          current: status,
          allowedMoves: [],
          detail: `shipment_ids[${ids.indexOf(dead[0])}] (${dead[0]}) is ${status}`,
        },
      );
    }

    const kind = format === 'zpl_4x6' ? 'zpl' : 'pdf';
    const filename = `labels-${ids.length}-${this.deps.now().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}.${EXTENSION[kind]}`;
    if (!input.packing_slips) return { ...(await this.mergedFile(scope, ids, format, 'format')), filename };

    // Each box's paper together: its label pages, then its order's packing slip (once per order;
    // a return label ships nothing to pack).
    const files: Buffer[] = [];
    const slipped = new Set<string>();
    for (const id of ids) {
      files.push(await this.shipmentFile(scope, id, format, 'format'));
      const row = rows.get(id)!;
      if (row.is_return || slipped.has(row.order_id)) continue;
      slipped.add(row.order_id);
      files.push(await renderPackingSlip(packingSlipOf(await this.orders.getOrder(scope, row.order_id, { attachments: false }))));
    }
    return { ...(await this.merged(files, format)), filename };
  }

  /** One shipment's own label file in `format`; a carrier label that cannot become it is 422 naming the shipment. */
  private async shipmentFile(scope: Scope, id: string, format: LabelFormat, formatField: string): Promise<Buffer> {
    try {
      return (await this.shipments.label(scope, id, format)).body;
    } catch (err) {
      if (err instanceof AppError && err.code === 'label_format_unavailable') {
        throw new AppError(
          'label_format_unavailable',
          `Shipment ${id}'s carrier label cannot be made into ${format} without loss; download the labels one by one.`,
          { details: [{ field: formatField, message: `not available for shipment ${id}` }] },
        );
      }
      throw err;
    }
  }

  private async merged(files: Buffer[], format: LabelFormat): Promise<{ body: Buffer; content_type: string }> {
    const kind = format === 'zpl_4x6' ? 'zpl' : 'pdf';
    return { body: await mergeLabelFiles(files, kind), content_type: kind === 'zpl' ? 'application/x-zpl' : 'application/pdf' };
  }
}
