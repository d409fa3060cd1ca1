import { iso } from '../../platform/http/wire.js';
import type { Manifest } from './manifests.schemas.js';
import type { ManifestSummaryRow } from './manifests.repo.js';

export function documentUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/v1/manifests/${id}/document`;
}

export function toManifest(row: ManifestSummaryRow, baseUrl: string): Manifest {
  return {
    id: row.id,
    carrier: row.carrier,
    carrier_account_id: row.carrier_account_id,
    location_id: row.location_id,
    ship_date: row.ship_date,
    status: row.status,
    shipment_ids: row.shipment_ids,
    rejected: row.rejected,
    documents: row.status === 'ready' && row.document_type ? [{ type: row.document_type, url: documentUrl(baseUrl, row.id) }] : [],
    form_number: row.status === 'ready' ? row.carrier_manifest_id : null,
    batch_id: row.batch_id,
    error: row.error,
    ready_at: iso(row.ready_at),
    created_at: iso(row.created_at)!,
  };
}
