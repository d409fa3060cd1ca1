import { secretScrubber, type SecretScrubber } from '../platform/secret-scrubber.js';
import type { ApiCallContext, CarrierApiDriver } from './driver.js';
import type { TokenCache } from './http/token-cache.js';

/** The secret fields of a credentials schema (`writeOnly: true`), per schema. */
const secretFieldsBySchema = new WeakMap<Record<string, unknown>, string[]>();

function secretFields(schema: Record<string, unknown>): string[] {
  let fields = secretFieldsBySchema.get(schema);
  if (!fields) {
    const properties = (schema.properties ?? {}) as Record<string, { writeOnly?: boolean }>;
    fields = Object.entries(properties).flatMap(([name, p]) => (p.writeOnly === true ? [name] : []));
    secretFieldsBySchema.set(schema, fields);
  }
  return fields;
}

/** What one account's carrier answers are scrubbed of: its write-only credentials and the tokens cached for it. */
export function accountScrubber(driver: Pick<CarrierApiDriver, 'credentialsSchema'>, ctx: ApiCallContext, tokens: TokenCache): SecretScrubber {
  const credentials = ctx.account.credentials;
  const values = secretFields(driver.credentialsSchema).map((f) => credentials[f]);
  return secretScrubber([...values.filter((v): v is string => typeof v === 'string'), ...tokens.tokensOf(ctx.account.id)]);
}

type Operation = (ctx: ApiCallContext, request: never) => Promise<unknown>;

/**
 * The driver with every outcome scrubbed of the account's secrets before anyone sees it: a
 * carrier (or a proxy at the account's `base_url`) that quotes our request back in an error
 * puts the client secret, the Basic header or the bearer token into the messages that become
 * the account's health message, a rate query's `messages`, a 422's `details` and log lines.
 * Every result (its strings, at any depth) and every thrown error is scrubbed here, the one
 * place all of them pass, after the call (so a token fetched during it is known).
 */
export function withSecretScrubbing(driver: CarrierApiDriver, tokens: TokenCache): CarrierApiDriver {
  const guard = <F extends Operation | undefined>(operation: F): F => {
    if (!operation) return operation;
    const bound = operation.bind(driver) as Operation;
    return (async (ctx: ApiCallContext, request: never) => {
      try {
        const result = await bound(ctx, request);
        return accountScrubber(driver, ctx, tokens).scrubValue(result);
      } catch (err) {
        throw accountScrubber(driver, ctx, tokens).scrubError(err);
      }
    }) as F;
  };
  const scrubbed: CarrierApiDriver = {
    carrier: driver.carrier,
    credentialsSchema: driver.credentialsSchema,
    hosts: driver.hosts,
    rates: guard(driver.rates),
    purchase: guard(driver.purchase),
    void: guard(driver.void),
    track: guard(driver.track),
    validateAddress: guard(driver.validateAddress),
    schedulePickup: guard(driver.schedulePickup),
    cancelPickup: guard(driver.cancelPickup),
    testCredentials: guard(driver.testCredentials),
  };
  // Optional operations stay absent when the driver has none (capabilities read their presence).
  if (driver.labelImage) scrubbed.labelImage = driver.labelImage.bind(driver);
  if (driver.manifest) scrubbed.manifest = guard(driver.manifest);
  return scrubbed;
}
