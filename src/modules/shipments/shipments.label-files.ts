import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Scope } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { convertCarrierLabels, issuedLabelFormat, stampVoid } from '../labels/index.js';
import * as repo from './shipments.repo.js';
import type { LabelFormatCode } from './shipments.schemas.js';
import { issuedByCarrier, packageLabelData, type LabelRenderer } from './shipments.labels.js';
import type { ShipmentRow } from './shipments.tables.js';

export interface LabelFile {
  body: Buffer;
  content_type: string;
  filename: string;
}

const fileExtension: Record<LabelFormatCode, string> = { pdf_4x6: 'pdf', pdf_letter: 'pdf', png_4x6: 'png', zpl_4x6: 'zpl' };

/**
 * A shipment's label files: the stored artifact, or another format made on demand and kept
 * beside it. A label the carrier issued is converted where that is lossless and never redrawn;
 * one the platform drew is drawn again from the stored shipment (docs/carriers.md, "One
 * contract, two drivers").
 */
export class LabelFiles {
  constructor(
    private readonly deps: Deps,
    private readonly carriers: Promise<CarrierRegistry>,
    private readonly renderer: LabelRenderer,
    /** The reference a drawn label prints (the order's external id, else its id). */
    private readonly referenceOf: (scope: Scope, row: ShipmentRow) => Promise<string | null>,
  ) {}

  /** The label file of a shipment (ShipmentsService.label adds its customs documents). */
  async file(scope: Scope, row: ShipmentRow, format?: LabelFormatCode): Promise<LabelFile> {
    const wanted = (format ?? row.label_format) as LabelFormatCode;
    const filename = `label-${row.tracking_number}.${fileExtension[wanted] ?? 'bin'}`;
    const stored = await repo.findLabel(this.deps.db, scope, row.id, wanted);
    const file = stored
      ? { body: Buffer.from(stored.body.buffer, stored.body.byteOffset, stored.body.byteLength), content_type: stored.content_type, filename }
      : await this.render(scope, row, wanted, filename);
    // A carrier's own label is never redrawn: once voided, it is stamped VOID on every read.
    if (issuedByCarrier(row) && row.status === 'voided') return { ...file, body: await stampVoid(file.body, file.content_type) };
    return file;
  }

  /** A format not stored yet: the carrier's own converted, or ours rendered; then kept. */
  private async render(scope: Scope, row: ShipmentRow, wanted: LabelFormatCode, filename: string): Promise<LabelFile> {
    const id = row.id;
    if (issuedByCarrier(row)) {
      // The carrier's own label, never one of ours: converted where that is lossless, else 422.
      const kept = await repo.findKeptCarrierLabels(this.deps.db, scope, id);
      const issued = kept[0];
      const converted =
        issued &&
        (await convertCarrierLabels(
          kept.map((l) => ({ format: l.format, bytes: Buffer.from(l.body.buffer, l.body.byteOffset, l.body.byteLength) })),
          wanted,
        ));
      if (!converted) {
        throw new AppError(
          'label_format_unavailable',
          `The carrier issued this label as ${row.carrier_label_format ?? 'another format'}; ${wanted} cannot be made from it without loss.`,
          {
            // Point to what the carrier issued: the purchase's own format may be one it could not give.
            details: [{ field: 'format', message: `not available for this label; ask for ${issued ? issuedLabelFormat(issued.format) : row.label_format}` }],
          },
        );
      }
      await repo.insertLabel(this.deps.db, {
        shipment_id: id,
        format: wanted,
        workspace_id: row.workspace_id,
        environment: row.environment,
        content_type: converted.content_type,
        body: converted.body,
        created_at: this.deps.now(),
      });
      return { body: converted.body, content_type: converted.content_type, filename };
    }
    const carrier = (await this.carriers).get(row.carrier);
    const rendered = await this.renderer.renderPackageLabels(packageLabelData(row, carrier, await this.referenceOf(scope, row)), wanted);
    await repo.insertLabel(this.deps.db, {
      shipment_id: id,
      format: wanted,
      workspace_id: row.workspace_id,
      environment: row.environment,
      content_type: rendered.content_type,
      body: rendered.body,
      created_at: this.deps.now(),
    });
    return { body: rendered.body, content_type: rendered.content_type, filename };
  }
}
