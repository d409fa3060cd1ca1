import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Config } from '../../config.js';
import { errorCatalogue, type ErrorCode } from '../errors.js';
import { RETRY_AFTER_MAX_SECONDS } from './error-handler.js';
import { ERROR_EXAMPLE, INVALID_STATE_EXAMPLE } from './schemas.js';

const errorTable = Object.entries(errorCatalogue)
  .map(([code, { status, message }]) => `| ${status} | \`${code}\` | ${message} |`)
  .join('\n');

/** OpenAPI 3.1.0 document generated from the route schemas. */
export function openApiOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Shipping service API',
        version: config.version,
        description:
          'Multi-carrier shipping API. `/v1` takes an API key (`Authorization: Bearer sk_…`) plus ' +
          '`X-Service-Workspace`; `/api/admin` and `/api/super-admin` take a session token from ' +
          '`POST /api/auth/login`.\n\nErrors are `{code, message, details?, request_id}`:\n\n' +
          `| Status | Code | Meaning |\n|---|---|---|\n${errorTable}`,
      },
      servers: [
        {
          url: config.publicBaseUrl,
          // The audience and environment of the server (OWASP API9: inventory).
          description: `${config.nodeEnv === 'production' ? 'Production' : `Local (${config.nodeEnv})`} server: this deployment's PUBLIC_BASE_URL.`,
          'x-internal': false,
        } as { url: string },
      ],
      components: { securitySchemes, headers: rateLimitHeaders },
    },
    // On a copy with nothing shared: the document's schemas may be the very objects the routes
    // validate with, and one schema object can sit in both a request and a response; the bounds
    // lintReady adds to responses must never become input rules, in the validator or the document.
    transformObject: (documentObject) =>
      lintReady(addResponseExamples(completeOperations(JSON.parse(JSON.stringify((documentObject as { openapiObject: OpenApiObject }).openapiObject))))),
    refResolver: {
      // Name components after their $id (Error, Account…) rather than def-0, def-1.
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  };
}

type Schema = Record<string, any>;
type MediaObject = { schema?: Schema; example?: unknown; examples?: Record<string, unknown> };
type OpenApiResponse = { description?: string; headers?: Record<string, unknown>; content?: Record<string, MediaObject> };
type OpenApiOperation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ schema?: Schema }>;
  requestBody?: { content?: Record<string, MediaObject> };
  responses?: Record<string, OpenApiResponse>;
};
type OpenApiObject = {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  tags?: Array<{ name: string; description: string }>;
  components?: { schemas?: Record<string, Schema>; headers?: Record<string, unknown> };
};

/**
 * How each part of the API authenticates, one scheme per kind of credential (OWASP API5: the
 * admin routes do not share a scheme with the others). The session schemes all carry the token
 * from POST /api/auth/login; they differ in whom they admit.
 */
const securitySchemes = {
  apiKey: { type: 'http', scheme: 'bearer', description: 'Secret API key sk_test_… / sk_live_… (/v1), with X-Service-Workspace.' },
  workspace: { type: 'apiKey', in: 'header', name: 'X-Service-Workspace', description: 'The workspace id the API key belongs to' },
  session: {
    type: 'http',
    scheme: 'bearer',
    description: "Session token from POST /api/auth/login (or the dashboard's session cookie): the account's own session routes under /api/auth.",
  },
  adminSession: {
    type: 'http',
    scheme: 'bearer',
    description:
      "Session token from POST /api/auth/login of a member of the workspace (/api/admin): it acts on the workspace named by X-Service-Workspace (or the account's only one) and the environment named by X-Service-Environment (live by default).",
  },
  superAdminSession: {
    type: 'http',
    scheme: 'bearer',
    description: 'Session token from POST /api/auth/login of an account with role super_admin (/api/super-admin).',
  },
  ingestKey: { type: 'http', scheme: 'bearer', description: "An integration's ingest key ik_… (/api/integrations)." },
  platformSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Shopify-Hmac-Sha256',
    description:
      "A store platform's webhook signature over the raw body (Shopify: base64 HMAC-SHA256 with the app's client secret); the receiver's only credential.",
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The operator's METRICS_TOKEN (/metrics): required in production (without one set, /metrics answers 404 there) and wherever METRICS_TOKEN is set.",
  },
} as const;

const authSentences: Array<[scheme: string, sentence: string]> = [
  ['apiKey', 'Authentication: an API key (`Authorization: Bearer sk_…`) and `X-Service-Workspace`.'],
  ['ingestKey', "Authentication: an integration's ingest key (`Authorization: Bearer ik_…`)."],
  ['adminSession', 'Authentication: a session token from `POST /api/auth/login` and `X-Service-Workspace`.'],
  ['superAdminSession', "Authentication: a super-admin's session token from `POST /api/auth/login`."],
  ['session', 'Authentication: a session token from `POST /api/auth/login`.'],
  [
    'metricsToken',
    'Authentication: `Authorization: Bearer <METRICS_TOKEN>` in production or wherever `METRICS_TOKEN` is set (otherwise open); in production without `METRICS_TOKEN` the route answers 404.',
  ],
];

/**
 * Fills what every operation must carry and route files need not repeat: a description (the
 * summary plus how the route authenticates), and an explicit empty `security` on public routes so
 * the document says they are public rather than leaving it unsaid (redocly's security-defined).
 */
export function completeOperations<T extends OpenApiObject>(doc: T): T {
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(operations)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      op.security = groupSecurity(path, op.security ?? []);
      if (op.description) continue;
      const schemes = op.security.flatMap((s) => Object.keys(s));
      const auth = authSentences.find(([scheme]) => schemes.includes(scheme))?.[1] ?? 'Public: no credentials needed.';
      const summary = op.summary ? `${op.summary.replace(/\.?$/, '.')}\n\n` : '';
      op.description = `${summary}${auth} Errors are \`{code, message, details?, request_id}\`; the statuses this operation can answer are listed under its responses.`;
    }
  }
  return doc;
}

/** The error each status most often means, for the example of that error response. */
const exampleErrorCode: Record<string, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'invalid_state',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** An error body as the error handler writes it, for a status's usual code. */
export function errorExample(status: string): Record<string, unknown> {
  if (status === '400') return ERROR_EXAMPLE;
  if (status === '409') return INVALID_STATE_EXAMPLE;
  const code = exampleErrorCode[status] ?? 'internal_error';
  return { code, message: errorCatalogue[code].message, request_id: ERROR_EXAMPLE.request_id };
}

/**
 * Response examples the route files need not repeat. A route schema's own `examples` (moved by
 * @fastify/swagger to the media object) wins; otherwise a JSON response gets one derived from
 * its schema: a component's example (Order, Shipment… carry one in their module's
 * *.examples.ts), a cursor page of that component's example, or an error body with the status's
 * usual code.
 */
export function addResponseExamples<T extends OpenApiObject>(doc: T): T {
  const components = doc.components?.schemas ?? {};
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    typeof schema?.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/') ? components[schema.$ref.slice(21)] : schema;
  const exampleOf = (schema: Schema | undefined): unknown => {
    const direct = schema?.examples?.[0] ?? resolve(schema)?.examples?.[0];
    if (direct !== undefined) return direct;
    // A list (listResponse's cursor page, or a plain {data}): `data` holds the item's example.
    const list = resolve(schema);
    const item = list?.properties?.data?.type === 'array' ? exampleOf(list.properties.data.items) : undefined;
    if (item === undefined) return undefined;
    const page: Record<string, unknown> = { data: [item], has_more: false, next_cursor: null };
    const fields = Object.keys(list!.properties);
    if (!fields.every((f) => f in page)) return undefined;
    return Object.fromEntries(fields.map((f) => [f, page[f]]));
  };
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(operations)) {
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (!media?.schema || media.example !== undefined || media.examples !== undefined) continue;
        const example = /^[45]\d\d$/.test(status) && media.schema.$ref === '#/components/schemas/Error' ? errorExample(status) : exampleOf(media.schema);
        if (example !== undefined) media.example = example;
      }
    }
  }
  return doc;
}

/**
 * Each route group's security as its guard really checks it, so a route file need only say which
 * kind of credential it takes: /v1 takes the API key together with X-Service-Workspace (every
 * /v1 request needs both), and a session on /api/admin or /api/super-admin is that group's own
 * scheme (an active member of the workspace; a super-admin).
 */
function groupSecurity(path: string, security: Array<Record<string, string[]>>): Array<Record<string, string[]>> {
  const rename = (from: string, to: string) => security.map((req) => Object.fromEntries(Object.entries(req).map(([k, v]) => [k === from ? to : k, v])));
  if (path.startsWith('/v1/')) return security.map((req) => ('apiKey' in req ? { apiKey: [], workspace: [] } : req));
  if (path.startsWith('/api/admin/')) return rename('session', 'adminSession');
  if (path.startsWith('/api/super-admin/')) return rename('session', 'superAdminSession');
  return security;
}

/**
 * The route groups a rate limit guards, and whether it answers the RateLimit headers: /v1 by the
 * workspace's burst (every /v1 response carries them: docs/api-conventions.md; identity/guards.ts), the
 * others per client IP (a 429 with Retry-After, no RateLimit headers). /api/admin and
 * /api/super-admin (the dashboard's session routes) and the root descriptors have no limit.
 */
const rateLimitedGroups: Array<{ prefix: string; headers: boolean }> = [
  { prefix: '/v1/', headers: true },
  { prefix: '/api/auth/', headers: false },
  { prefix: '/api/public/', headers: false },
  { prefix: '/api/integrations/', headers: false },
];

/** The largest burst a super-admin can give a workspace (PATCH /api/super-admin/workspaces/{id}). */
const MAX_BURST_PER_MINUTE = 10_000_000;

/** The rate-limit headers, as components the responses refer to (IETF RateLimit header fields). */
const rateLimitHeaders = {
  'RateLimit-Limit': {
    description: "Requests per minute the workspace's plan allows (its burst).",
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: MAX_BURST_PER_MINUTE },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: MAX_BURST_PER_MINUTE },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the bucket is full again.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 60 },
  },
  'RateLimit-Policy': {
    description: 'The policy: `<limit>;w=60` (that many requests per 60-second window).',
    schema: { type: 'string', pattern: '^[0-9]{1,8};w=60$', maxLength: 13, example: '60;w=60' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again (a 429; a 503 when the database or a carrier is away, or the service is shutting down).',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: RETRY_AFTER_MAX_SECONDS },
  },
} as const;

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** What every tag groups, for the document's tag list; a tag not named here gets a generic line. */
const tagDescriptions: Record<string, string> = {
  system: 'The service descriptor, health, metrics.',
  'api-keys': 'API keys of a workspace: list, create (the secret is shown once), revoke.',
  orders: 'Orders to ship: create, list, read, update, cancel.',
  rates: 'Rate quotes across carriers and services.',
  addresses: 'Address validation and normalisation.',
  shipments: 'Shipments and their labels: buy, read, void, download.',
  tracking: 'Tracking of shipments and their events.',
  batches: 'Batch jobs over many orders or shipments (rate, buy labels, merged label files).',
  webhooks: 'Webhook endpoints, their signed deliveries and the delivery log.',
  'carrier-accounts': 'Carrier accounts of a workspace (simulated or the carrier’s API) and their health.',
  'shipping-rules': 'Shipping rules that choose a service for a purchase.',
  auth: 'Registration, login and the session of the account.',
  admin: 'The dashboard’s routes over a workspace (session-authenticated).',
  'super-admin': 'Accounts, workspaces, plans and the audit log, for super-admins.',
  public: 'Public routes (no credentials, limited per client IP): tracking pages, office redeem PINs.',
  integrations: 'Order intake from e-commerce integrations (ingest key).',
};

const STRING_MAX_BY_FORMAT: Record<string, number> = {
  'date-time': 64,
  date: 10,
  'date-or-date-time': 40,
  email: 320,
  uri: 2048,
  uuid: 36,
  // A label, label sheet or batch file served as the body itself.
  binary: 512 * 1024 * 1024,
};
/** The longest text field of a response: above any input's own maxLength (20,000: a PEM certificate). */
const RESPONSE_TEXT_MAX = 65_536;
/** A list page's `data`: the largest page (limit is clamped to 1..100). */
const PAGE_MAX = 100;
/** Any other array of a response: as many as the largest batch holds. */
const RESPONSE_ITEMS_MAX = 100_000;
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * What the Spectral lint (`.spectral.yaml`: spectral:oas and the OWASP API ruleset) asks of every
 * operation, filled in for all routes, present and future, so a routes file need not repeat it:
 * - the rate-limit story of each route group: the 429 (with Retry-After) of a limited group, the
 *   RateLimit headers on every 2xx and 4xx of /v1, Retry-After on every 429 and 503;
 * - the tags the operations use, declared;
 * - upper bounds on what a response can hold (see boundResponseSchema), where a schema states
 *   none (request schemas state their own bounds, which the validator enforces);
 * - `format` int32/int64 on every integer, from its bounds.
 */
export function lintReady<T extends OpenApiObject>(doc: T): T {
  const tags = new Set<string>();
  const fromResponses = new Set<string>();
  const fromRequests = new Set<string>();
  const walkRefs = (node: unknown, into: Set<string>): void => {
    if (Array.isArray(node)) node.forEach((n) => walkRefs(n, into));
    else if (node && typeof node === 'object') {
      const ref = (node as Schema).$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
        const name = ref.slice(21);
        if (!into.has(name)) {
          into.add(name);
          walkRefs(doc.components?.schemas?.[name], into);
        }
      }
      Object.values(node).forEach((n) => walkRefs(n, into));
    }
  };
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    const group = rateLimitedGroups.find((g) => path.startsWith(g.prefix));
    for (const op of Object.values(operations)) {
      if (typeof op !== 'object' || op === null || !op.responses) continue;
      op.tags?.forEach((t) => tags.add(t));
      walkRefs([op.parameters, op.requestBody], fromRequests);
      if (group && !op.responses['429'])
        op.responses['429'] = {
          description: 'Rate limited',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: errorExample('429') } },
        };
      for (const [status, response] of Object.entries(op.responses)) {
        if (group?.headers && /^[24]/.test(status)) {
          response.headers = {
            ...response.headers,
            'RateLimit-Limit': headerRef('RateLimit-Limit'),
            'RateLimit-Remaining': headerRef('RateLimit-Remaining'),
            'RateLimit-Reset': headerRef('RateLimit-Reset'),
            'RateLimit-Policy': headerRef('RateLimit-Policy'),
          };
        }
        if (status === '429') response.headers = { ...response.headers, 'Retry-After': { ...headerRef('Retry-After') } };
        if (status === '503') response.headers = { ...response.headers, 'Retry-After': headerRef('Retry-After') };
        for (const media of Object.values(response.content ?? {})) {
          walkRefs(media.schema, fromResponses);
          if (media.schema) boundResponseSchema(media.schema);
        }
      }
    }
  }
  // A component a request also uses keeps only its own bounds: those are what the server enforces.
  for (const name of fromResponses) if (!fromRequests.has(name) && doc.components?.schemas?.[name]) boundResponseSchema(doc.components.schemas[name]);
  const declared = new Set((doc.tags ?? []).map((t) => t.name));
  doc.tags = [
    ...(doc.tags ?? []),
    ...[...tags].filter((t) => !declared.has(t)).map((name) => ({ name, description: tagDescriptions[name] ?? `Operations tagged ${name}.` })),
  ];
  addIntegerFormats(doc);
  return doc;
}

const typeIs = (schema: Schema, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/** Calls visit on a schema and every subschema in it (not through $ref). */
function eachSchema(schema: unknown, visit: (s: Schema, key: string | undefined) => void, key?: string): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  const s = schema as Schema;
  visit(s, key);
  for (const [k, v] of Object.entries(s.properties ?? {})) eachSchema(v, visit, k);
  for (const k of ['items', 'additionalProperties', 'not', 'contains'] as const) eachSchema(s[k], visit, k === 'items' ? key : undefined);
  for (const k of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) if (Array.isArray(s[k])) s[k].forEach((v: unknown) => eachSchema(v, visit, key));
}

/**
 * Documented upper bounds of a response schema, where it gives none: text by its format (a
 * timestamp, an email, a URL, a file) or else RESPONSE_TEXT_MAX; a list page's `data` at the
 * largest page and any other array at RESPONSE_ITEMS_MAX; integers within JavaScript's safe
 * range, the most a JSON number from this service can exactly hold.
 */
function boundResponseSchema(schema: Schema): void {
  eachSchema(schema, (s, key) => {
    if (typeIs(s, 'string') && s.maxLength === undefined && s.enum === undefined && s.const === undefined) {
      s.maxLength = STRING_MAX_BY_FORMAT[s.format] ?? RESPONSE_TEXT_MAX;
    }
    if (typeIs(s, 'array') && s.maxItems === undefined) s.maxItems = key === 'data' ? PAGE_MAX : RESPONSE_ITEMS_MAX;
    if (typeIs(s, 'integer')) {
      if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = Number.MIN_SAFE_INTEGER;
      if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = Number.MAX_SAFE_INTEGER;
    }
  });
}

/** `format` int32 or int64 on every integer of the document, from its bounds. */
function addIntegerFormats(doc: OpenApiObject): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const s = node as Schema;
    if (typeIs(s, 'integer') && s.format === undefined) {
      const min = s.minimum ?? s.exclusiveMinimum;
      const max = s.maximum ?? s.exclusiveMaximum;
      s.format = typeof min === 'number' && typeof max === 'number' && min >= INT32.min && max <= INT32.max ? 'int32' : 'int64';
    }
    Object.values(s).forEach(visit);
  };
  visit(doc.paths);
  visit(doc.components);
}
