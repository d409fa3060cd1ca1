import { Type } from '@sinclair/typebox';
import { PageLimitSchema } from '../../platform/http/schemas.js';
import { AccountSchema, WorkspaceRoleSchema } from './workspaces.schemas.js';

const Timestamp = Type.String({ format: 'date-time' });

const MEMBER_EXAMPLE = {
  id: 'acct_01m855vr8rexe8pmhf6m9wwatm',
  email: 'grace@example.com',
  name: 'Grace Hopper',
  role: 'operator',
  created_at: '2026-11-28T21:44:14.359Z',
};
const INVITATION_EXAMPLE = {
  id: 'inv_01m855vrdteq4axpr0q548ye8a',
  email: 'grace@example.com',
  role: 'operator',
  status: 'pending',
  created_at: '2026-11-28T21:44:14.522Z',
  expires_at: '2026-12-05T21:44:14.522Z',
};
const CREATED_INVITATION_EXAMPLE = {
  ...INVITATION_EXAMPLE,
  token: 'invtok_Aut9ExampleTokenShownOnceOnly000000000000hE2Y',
  url: 'https://ship.example.com/dashboard/invitations/invtok_Aut9ExampleTokenShownOnceOnly000000000000hE2Y',
};

/** A member of the workspace: its account (`id` is the account's) and its role. */
export const MemberSchema = Type.Object(
  {
    id: Type.String({ description: "The member's account id (acct_…)." }),
    email: Type.String(),
    name: Type.String(),
    role: WorkspaceRoleSchema,
    created_at: Type.String({ format: 'date-time', description: 'When the account joined the workspace.' }),
  },
  { $id: 'Member', title: 'Member', examples: [MEMBER_EXAMPLE] },
);

export const InvitationSchema = Type.Object(
  {
    id: Type.String({ description: 'inv_…' }),
    email: Type.String(),
    role: WorkspaceRoleSchema,
    status: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('revoked'), Type.Literal('expired')]),
    created_at: Timestamp,
    expires_at: Timestamp,
  },
  { $id: 'Invitation', title: 'Invitation', examples: [INVITATION_EXAMPLE] },
);

export const CreatedInvitationSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: WorkspaceRoleSchema,
    status: Type.Literal('pending'),
    created_at: Timestamp,
    expires_at: Timestamp,
    token: Type.String({ description: 'The invitation token. Shown in this response only (only its hash is kept).' }),
    url: Type.String({ description: 'The link to send the invited person (the dashboard accept page). Shown in this response only.' }),
  },
  { title: 'CreatedInvitation', examples: [CREATED_INVITATION_EXAMPLE] },
);

export const InviteBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    role: WorkspaceRoleSchema,
  },
  { additionalProperties: false, examples: [{ email: 'grace@example.com', role: 'operator' }] },
);

export const UpdateMemberBody = Type.Object({ role: WorkspaceRoleSchema }, { additionalProperties: false, examples: [{ role: 'admin' }] });

export const ListPageQuery = Type.Object({ limit: Type.Optional(PageLimitSchema), cursor: Type.Optional(Type.String({ maxLength: 512 })) });

export const MemberIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
/**
 * The token of an invitation or reset link, in the path as the contract places it; named `code`
 * because a parameter named like a credential reads as one leaked in a URL (OWASP API2), while
 * this one is a single-use link, meant to travel in one.
 */
export const TokenParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the link.' }) });

export const AcceptInvitationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  {
    additionalProperties: false,
    description: "A new account sends {name, password} (its email is the invitation's); a signed-in account sends {} with its session.",
    examples: [{ name: 'Grace Hopper', password: 'correct horse battery' }, {}],
  },
);

export const AcceptInvitationResponse = Type.Object(
  {
    account: Type.Ref(AccountSchema),
    workspace: Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String(), role: WorkspaceRoleSchema }),
    session: Type.Union([Type.Object({ token: Type.String(), token_type: Type.Literal('Bearer'), expires_at: Timestamp }), Type.Null()], {
      description: 'A new account is signed in: its session token (shown once). Null when a signed-in account accepted.',
    }),
  },
  {
    examples: [
      {
        account: {
          id: 'acct_01m855vr8rexe8pmhf6m9wwatm',
          email: 'grace@example.com',
          name: 'Grace Hopper',
          role: 'user',
          status: 'active',
          created_at: '2026-11-28T21:44:14.359Z',
          updated_at: '2026-11-28T21:44:14.359Z',
        },
        workspace: { id: 'ws_01m855vr8rexe8pmhf6m9wwatn', name: 'Acme', plan: 'starter', role: 'operator' },
        session: { token: 'sst_ExampleSessionTokenShownOnce000000000000000', token_type: 'Bearer', expires_at: '2026-12-05T21:44:14.359Z' },
      },
    ],
  },
);

export const PasswordResetRequestBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }) },
  { additionalProperties: false, examples: [{ email: 'ada@example.com' }] },
);

export const PasswordResetBody = Type.Object(
  { password: Type.String({ maxLength: 1024, description: 'The new password (at least 10 characters).' }) },
  { additionalProperties: false, examples: [{ password: 'a new correct horse battery' }] },
);

export const IssuedPasswordResetSchema = Type.Object(
  {
    id: Type.String({ description: 'pwr_…' }),
    account_id: Type.String(),
    token: Type.String({ description: 'Shown in this response only (only its hash is kept).' }),
    url: Type.String({ description: 'The reset link (the dashboard page), valid one hour, single-use. Shown in this response only.' }),
    expires_at: Timestamp,
    mailed: Type.Boolean({ description: 'Whether the link was also mailed to the account (SMTP_URL set).' }),
  },
  {
    title: 'IssuedPasswordReset',
    examples: [
      {
        id: 'pwr_01m855vrdteq4axpr0q548ye8a',
        account_id: 'acct_01m855vr8rexe8pmhf6m9wwatm',
        token: 'pwrtok_ExampleTokenShownOnceOnly0000000000000000000',
        url: 'https://ship.example.com/dashboard/reset-password/pwrtok_ExampleTokenShownOnceOnly0000000000000000000',
        expires_at: '2026-11-28T22:44:14.522Z',
        mailed: false,
      },
    ],
  },
);
