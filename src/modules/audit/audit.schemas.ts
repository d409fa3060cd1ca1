import { Type, type Static } from '@sinclair/typebox';
import { DateOrDateTimeParam, PageLimitSchema } from '../../platform/http/schemas.js';
import { AUDIT_ENTRY_EXAMPLE } from './audit.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String(),
    at: Timestamp,
    actor: Type.Object({
      type: Type.String({ description: 'account, api_key, integration or system' }),
      id: orNull(Type.String()),
      email: orNull(Type.String()),
    }),
    action: Type.String({ description: '<target_type>.<past verb>, e.g. account.suspended' }),
    target_type: Type.String(),
    target_id: orNull(Type.String()),
    workspace_id: orNull(Type.String()),
    environment: orNull(Type.String()),
    changes: Type.Unknown({ description: 'What changed ({field: {from, to}} or the inputs); secrets masked.' }),
    ip: orNull(Type.String()),
    request_id: orNull(Type.String()),
  },
  { $id: 'AuditEntry', title: 'AuditEntry', examples: [AUDIT_ENTRY_EXAMPLE] },
);
export type AuditEntryWire = Static<typeof AuditEntrySchema>;

const filterString = (description: string) => Type.Optional(Type.String({ maxLength: 200, description }));

export const AuditListQuery = Type.Object({
  action: filterString('Exact action (account.suspended), or a prefix ending in .* (account.*).'),
  actor: filterString('Actor id (acct_…, key_…) or actor email.'),
  actor_id: filterString('Synonym of actor.'),
  target_type: filterString('account, workspace, setting, order, api_key, integration, office_pin, …'),
  target_id: filterString('The target id.'),
  workspace_id: filterString('Entries about one workspace.'),
  from: Type.Optional(DateOrDateTimeParam('ISO date or date-time (inclusive).')),
  to: Type.Optional(DateOrDateTimeParam('ISO date or date-time (exclusive).')),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export type AuditListFilter = Static<typeof AuditListQuery>;
