import type { SandboxOptions, SandboxScenario } from '../../carriers/types.js';

/** The setting that sets simulated tracking speed (simulated seconds per real second). */
export const TIME_SCALE_SETTING = 'sandbox.tracking_time_scale' as const;

const MAGIC = /SANDBOX:(exception|return_to_sender|delivered|unused)\b/i;

/**
 * The scenario a test-environment shipment plays, from a magic value in the recipient's name
 * or the order notes (`SANDBOX:exception`, `SANDBOX:return_to_sender`, `SANDBOX:delivered`, `SANDBOX:unused`: never scanned; for a return label also its reason or RMA number);
 * `normal` otherwise. Live shipments never get one.
 */
export function sandboxScenario(...texts: (string | null | undefined)[]): SandboxScenario {
  for (const text of texts) {
    const match = text ? MAGIC.exec(text) : null;
    if (match) return match[1].toLowerCase() as SandboxScenario;
  }
  return 'normal';
}

/** A stored setting value as a usable scale: a positive finite number, else 1 (real time). */
export function parseTimeScale(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.min(n, 1_000_000) : 1;
}

export function sandboxOptions(environment: 'test' | 'live', timeScale: number, scenario: SandboxScenario): SandboxOptions | null {
  return environment === 'test' ? { time_scale: timeScale, scenario } : null;
}
