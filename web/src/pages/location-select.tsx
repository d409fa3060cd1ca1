import { api, call } from '../api/client';
import { Select, useAsync } from '../ui';

/**
 * Where something ships from: one of the workspace's locations (GET /api/admin/locations), or
 * `''` for the default (what the API does when location_id is left out). Hidden while the
 * workspace has at most one location: there is nothing to choose.
 */
export function LocationSelect({ label = 'Ship from', value, onChange, error, emptyLabel = 'Default location' }: { label?: string; value: string; onChange: (id: string) => void; error?: string; emptyLabel?: string }) {
  const list = useAsync(() => call(api.GET('/api/admin/locations', { params: { query: { limit: 100 } } })), []);
  const locations = list.data?.data ?? [];
  if (locations.length < 2 && !value) return null;
  return (
    <Select label={label} value={value} error={error} onChange={(e) => onChange(e.target.value)} data-testid="location-select">
      <option value="">{emptyLabel}</option>
      {locations.map((l) => (
        <option key={l.id} value={l.id}>
          {l.name}
          {l.is_default ? ' (default)' : ''} · {String((l.address as { city?: string }).city ?? '')} {l.timezone}
        </option>
      ))}
    </Select>
  );
}
