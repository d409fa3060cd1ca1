import type { CSSProperties } from 'react';
import { api, call } from '../api/client';
import { Select, useAsync } from '../ui';

/**
 * Where something ships from: one of the workspace's locations (GET /api/admin/locations), or
 * `''` for the default (what the API does when location_id is left out). Hidden while the
 * workspace has at most one location: there is nothing to choose.
 */
export function LocationSelect({
  label = 'Ship from',
  value,
  onChange,
  error,
  emptyLabel = 'Default location',
}: {
  label?: string;
  value: string;
  onChange: (id: string) => void;
  error?: string;
  emptyLabel?: string;
}) {
  const locations = useLocations();
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

/** The workspace's locations (the first 100: a workspace ships from a handful). */
function useLocations() {
  const list = useAsync(() => call(api.GET('/api/admin/locations', { params: { query: { limit: 100 } } })), []);
  return list.data?.data ?? [];
}

/**
 * A list filter by location (`?location_id=`), shown only when the workspace has two or more
 * locations, or when the URL already names one (so a filter in force can always be cleared).
 */
export function LocationFilter({ value, onChange, style }: { value: string; onChange: (id: string) => void; style?: CSSProperties }) {
  const locations = useLocations();
  if (locations.length < 2 && !value) return null;
  return (
    <label className="inline">
      Location
      <select value={value} style={style} onChange={(e) => onChange(e.target.value)} data-testid="location-filter">
        <option value="">Any</option>
        {locations.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
        {value && !locations.some((l) => l.id === value) && <option value={value}>{value}</option>}
      </select>
    </label>
  );
}

/** A location's name (its id while it loads, or if it is gone). */
export function LocationName({ id }: { id: string }) {
  const location = useAsync(() => call(api.GET('/api/admin/locations/{id}', { params: { path: { id } } })).catch(() => null), [id]);
  return <span data-testid="location-name">{location.data?.name ?? <span className="mono">{id}</span>}</span>;
}
