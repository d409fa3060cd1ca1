import { Type } from '@sinclair/typebox';
import { DateTimeSchema, PageLimitSchema } from '../../platform/http/schemas.js';
import { AddressSchema } from '../addresses/index.js';
import { WORKSPACE_ROLES } from './roles.js';

/** A role in a workspace (roles.ts): viewer < operator < admin < owner. */
export const WorkspaceRoleSchema = Type.Union(
  WORKSPACE_ROLES.map((r) => Type.Literal(r)),
  {
    description:
      'viewer (reads), operator (orders, rates, labels, returns, batches, manifests, pickups, tracking), admin (everything but ownership), owner (everything).',
  },
);
import {
  ACCOUNT_EXAMPLE,
  API_KEY_EXAMPLE,
  CREATED_API_KEY_EXAMPLE,
  CREATED_EXPIRING_API_KEY_EXAMPLE,
  CREATE_API_KEY_BODY_EXAMPLE,
  CREATE_EXPIRING_API_KEY_BODY_EXAMPLE,
  LOGIN_BODY_EXAMPLE,
  LOGIN_RESPONSE_EXAMPLE,
  ME_RESPONSE_EXAMPLE,
  REGISTER_BODY_EXAMPLE,
  REGISTER_RESPONSE_EXAMPLE,
  SESSION_RESPONSE_EXAMPLE,
  SUSPEND_BODY_EXAMPLE,
  UPDATE_PLAN_BODY_EXAMPLE,
  UPDATE_WORKSPACE_BODY_EXAMPLE,
  WORKSPACE_EXAMPLE,
  WORKSPACE_SUMMARY_EXAMPLE,
} from './workspaces.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
export const EnvironmentSchema = Type.Union([Type.Literal('test'), Type.Literal('live')]);
export const PlanSchema = Type.Union([Type.Literal('starter'), Type.Literal('professional'), Type.Literal('enterprise')]);

export const AccountSchema = Type.Object(
  {
    id: Type.String({ examples: ['acct_01jx0000000000000000000000'] }),
    email: Type.String(),
    name: Type.String(),
    role: Type.Union([Type.Literal('user'), Type.Literal('super_admin')]),
    status: Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('suspended')]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Account', title: 'Account', examples: [ACCOUNT_EXAMPLE] },
);

export const WorkspaceSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    plan: PlanSchema,
    burst_per_minute: Type.Union([Type.Integer(), Type.Null()]),
    mtls_required: Type.Boolean({ description: '/v1 only over a connection with a registered client certificate (mutual TLS).' }),
    origin_address: Type.Union([Type.Record(Type.String(), Type.Any()), Type.Null()]),
    suspended_at: Type.Union([Timestamp, Type.Null()], { description: 'Set while the owning account is suspended (its API keys are refused).' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Workspace', title: 'Workspace', examples: [WORKSPACE_EXAMPLE] },
);

/** The super-admin list: the workspace plus its member and order counts. */
export const WorkspaceSummarySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    plan: PlanSchema,
    burst_per_minute: Type.Union([Type.Integer(), Type.Null()]),
    effective_burst_per_minute: Type.Integer({ description: 'The /v1 burst in force: the custom value (enterprise) or the plan default.' }),
    origin_address: Type.Union([Type.Record(Type.String(), Type.Any()), Type.Null()]),
    suspended_at: Type.Union([Timestamp, Type.Null()]),
    member_count: Type.Integer(),
    order_count: Type.Integer({ description: 'Orders in both environments, archived included.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'WorkspaceSummary', examples: [WORKSPACE_SUMMARY_EXAMPLE] },
);

export const SuspendBody = Type.Union(
  [Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false }), Type.Null()],
  { description: 'Optional: why the account is suspended (kept in the audit log).', examples: [SUSPEND_BODY_EXAMPLE] },
);

export const ApiKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    environment: EnvironmentSchema,
    prefix: Type.String({ description: 'The first characters of the key, e.g. sk_test_Ab12' }),
    last4: Type.String(),
    role: WorkspaceRoleSchema,
    created_at: Timestamp,
    expires_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
  },
  { $id: 'ApiKey', title: 'ApiKey', examples: [API_KEY_EXAMPLE] },
);

export const CreatedApiKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    environment: EnvironmentSchema,
    prefix: Type.String(),
    last4: Type.String(),
    role: WorkspaceRoleSchema,
    created_at: Timestamp,
    expires_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
    secret: Type.String({ description: 'The whole key. Shown in this response only.' }),
  },
  { title: 'CreatedApiKey', examples: [CREATED_API_KEY_EXAMPLE, CREATED_EXPIRING_API_KEY_EXAMPLE] },
);

export const RegisterBody = Type.Object(
  {
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: 1024 }),
    name: Type.String({ maxLength: 200 }),
    workspace_name: Type.String({ maxLength: 200 }),
  },
  { additionalProperties: false, examples: [REGISTER_BODY_EXAMPLE] },
);

export const RegisterResponse = Type.Object(
  {
    account: Type.Ref(AccountSchema),
    workspace: Type.Object({ id: Type.String(), name: Type.String(), plan: PlanSchema }),
  },
  { examples: [REGISTER_RESPONSE_EXAMPLE] },
);

export const LoginBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false, examples: [LOGIN_BODY_EXAMPLE] },
);

export const LoginResponse = Type.Object(
  {
    token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_at: Timestamp,
    account: Type.Ref(AccountSchema),
  },
  { examples: [LOGIN_RESPONSE_EXAMPLE] },
);

export const SessionResponse = Type.Object(
  {
    expires_at: Timestamp,
    account: Type.Ref(AccountSchema),
  },
  { examples: [SESSION_RESPONSE_EXAMPLE] },
);

const MembershipSchema = Type.Object({ id: Type.String(), name: Type.String(), plan: PlanSchema, role: Type.String() });

export const MeResponse = Type.Object(
  {
    account: Type.Ref(AccountSchema),
    workspaces: Type.Array(MembershipSchema),
  },
  { examples: [ME_RESPONSE_EXAMPLE] },
);

export const CurrentSessionResponse = Type.Object(
  {
    account: Type.Union([Type.Ref(AccountSchema), Type.Null()]),
    workspaces: Type.Array(MembershipSchema),
  },
  { examples: [ME_RESPONSE_EXAMPLE] },
);

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    environment: Type.Optional(EnvironmentSchema),
    expires_at: Type.Optional(Type.Union([DateTimeSchema, Type.Null()])),
    role: Type.Optional({
      ...WorkspaceRoleSchema,
      description: "The key's role in the workspace, admin by default; never above its creator's (else 403 forbidden naming the role).",
    }),
  },
  { additionalProperties: false, examples: [CREATE_API_KEY_BODY_EXAMPLE, CREATE_EXPIRING_API_KEY_BODY_EXAMPLE] },
);

export const UpdateWorkspaceBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    origin_address: Type.Optional(Type.Union([AddressSchema, Type.Null()], { description: 'The default ship-from address; null clears it.' })),
  },
  { additionalProperties: false, examples: [UPDATE_WORKSPACE_BODY_EXAMPLE] },
);

export const AccountListQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('suspended')])),
  q: Type.Optional(Type.String({ maxLength: 254 })),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});

export const WorkspaceListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});

export const UpdatePlanBody = Type.Object(
  {
    plan: Type.Optional(PlanSchema),
    burst_per_minute: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 10_000_000 }), Type.Null()])),
    mtls_required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [UPDATE_PLAN_BODY_EXAMPLE] },
);

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const UserIdParams = Type.Object({ userId: Type.String({ maxLength: 64 }) });
