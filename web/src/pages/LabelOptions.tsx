import { DANGEROUS_GOODS, SIGNATURES, type OptionsDraft } from './options-draft';

/**
 * The options a label is bought with (the buy-label card): the order's own until changed. Rates
 * asked with them list only services that offer them, each option's cost in the breakdown.
 */
export function LabelOptionsFields({ draft, onChange }: { draft: OptionsDraft; onChange: (d: OptionsDraft) => void }) {
  const set = <K extends keyof OptionsDraft>(key: K, value: OptionsDraft[K]) => onChange({ ...draft, [key]: value });
  return (
    <fieldset className="plain-fieldset" aria-label="Label options">
      <legend>Options</legend>
      <div className="grid3">
        <div className="field">
          <label htmlFor="opt-signature">Signature</label>
          <select id="opt-signature" value={draft.signature} onChange={(e) => set('signature', e.target.value as OptionsDraft['signature'])}>
            {SIGNATURES.map((s) => (
              <option key={s} value={s}>
                {s === 'none' ? 'None' : s === 'standard' ? 'Signature required' : 'Adult signature'}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="opt-insurance">Insurance (USD declared value)</label>
          <input id="opt-insurance" inputMode="decimal" placeholder="none" value={draft.insurance_usd} onChange={(e) => set('insurance_usd', e.target.value)} />
        </div>
        <div className="field">
          <label className="check">
            <input type="checkbox" checked={draft.saturday_delivery} onChange={(e) => set('saturday_delivery', e.target.checked)} /> Saturday delivery
          </label>
        </div>
        <div className="field">
          <label htmlFor="opt-dg">Dangerous goods</label>
          <select id="opt-dg" value={draft.dangerous_goods} onChange={(e) => set('dangerous_goods', e.target.value as OptionsDraft['dangerous_goods'])}>
            {DANGEROUS_GOODS.map((c) => (
              <option key={c} value={c}>
                {c === '' ? 'None' : c.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        {draft.dangerous_goods === 'dry_ice' && (
          <div className="field">
            <label htmlFor="opt-dry-ice">Dry ice (oz)</label>
            <input id="opt-dry-ice" inputMode="decimal" value={draft.dry_ice_weight_oz} onChange={(e) => set('dry_ice_weight_oz', e.target.value)} />
          </div>
        )}
        <div className="field">
          <label htmlFor="opt-ref1">References (printed on the label)</label>
          <input id="opt-ref1" maxLength={35} value={draft.reference1} onChange={(e) => set('reference1', e.target.value)} />
          <input aria-label="Second reference" maxLength={35} value={draft.reference2} onChange={(e) => set('reference2', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="opt-instructions">Delivery instructions</label>
          <input id="opt-instructions" maxLength={120} value={draft.delivery_instructions} onChange={(e) => set('delivery_instructions', e.target.value)} />
        </div>
      </div>
    </fieldset>
  );
}
