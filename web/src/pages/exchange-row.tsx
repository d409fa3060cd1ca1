import { useState, type ReactNode } from 'react';
import { Badge } from '../ui';

/** What the carrier and store exchange logs have in common. */
interface Exchange {
  status?: number | null;
  outcome: string;
  duration_ms: number;
  request_body?: unknown;
  response_body?: unknown;
}

const pretty = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body, null, 2));

/**
 * One exchange with a carrier or a store platform: the caller's leading cells (`lead`), the
 * status and outcome, the duration, the caller's further cells (`extra`), then the redacted
 * bodies, which open in a full-width row beneath.
 */
export function ExchangeRow({ x, lead, extra, testIdPrefix }: { x: Exchange; lead: ReactNode; extra?: ReactNode; testIdPrefix: string }) {
  const [open, setOpen] = useState(false);
  const hasBodies = x.request_body != null || x.response_body != null;
  return (
    <>
      <tr>
        {lead}
        <td>
          {x.status != null ? (
            <Badge value={String(x.status)} kind={x.status >= 200 && x.status < 300 ? 'succeeded' : 'failed'} />
          ) : (
            <span className="muted small">no answer</span>
          )}
          <div>
            <Badge value={x.outcome} kind={`outcome-${x.outcome}`} />
          </div>
        </td>
        <td className="num">{x.duration_ms} ms</td>
        {extra}
        <td>
          {hasBodies ? (
            <button type="button" className="btn btn-small" aria-expanded={open} onClick={() => setOpen(!open)}>
              {open ? 'Hide bodies' : 'Bodies'}
            </button>
          ) : (
            <span className="muted">—</span>
          )}
        </td>
      </tr>
      {open && (
        <tr className="exchange-bodies">
          <td colSpan={5}>
            <div className="grid2">
              <div>
                <h3 className="small muted">Request</h3>
                <pre className="excerpt" data-testid={`${testIdPrefix}-request`}>
                  {x.request_body == null ? '—' : pretty(x.request_body)}
                </pre>
              </div>
              <div>
                <h3 className="small muted">Response</h3>
                <pre className="excerpt" data-testid={`${testIdPrefix}-response`}>
                  {x.response_body == null ? '—' : pretty(x.response_body)}
                </pre>
              </div>
            </div>
          </td>
        </tr>
      )}
    </>
  );
}
