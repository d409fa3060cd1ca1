import { PRINT_FORMATS, type PrintFormat } from './label-file';

/**
 * The format of a print of selected labels and whether packing slips go with them (PDF only),
 * as the order queue's and the shipments list's bulk bars offer them.
 */
export function PrintOptions({
  format,
  onFormat,
  packingSlips,
  onPackingSlips,
}: {
  format: PrintFormat;
  onFormat: (f: PrintFormat) => void;
  packingSlips: boolean;
  onPackingSlips: (on: boolean) => void;
}) {
  return (
    <>
      <label className="inline small">
        <span className="sr-only">Print format</span>
        <select value={format} onChange={(e) => onFormat(e.target.value as PrintFormat)} aria-label="Print format">
          {PRINT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <label className="inline small">
        <input
          type="checkbox"
          checked={packingSlips && format !== 'zpl_4x6'}
          disabled={format === 'zpl_4x6'}
          onChange={(e) => onPackingSlips(e.target.checked)}
        />{' '}
        Packing slips
      </label>
    </>
  );
}
