import {
  AdminCreatedSchema,
  AdminFactorChangedSchema,
  factorChange,
  type FactorChangeKind,
  type AdminAlertRequested,
  AdminPasswordResetSchema,
  AdminRole,
  AdminStatus,
  AdminStatusChangedSchema,
  AdminUpdatedSchema,
  create,
  encodePayload,
  payloadOf,
  timestampFromDate,
} from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import { enqueue } from '@readiness/kit/outbox';
import type { AdminRecord } from '../data-access/admins-repository';

const role = (r: AdminRecord['role']) => (r === 'super_admin' ? AdminRole.SUPER_ADMIN : AdminRole.ADMIN);
const status = (s: AdminRecord['status']) => (s === 'active' ? AdminStatus.ACTIVE : AdminStatus.DISABLED);

/** Each function writes its event into the caller's transaction (transactional outbox). */
export const adminEvents = {
  created: (tx: Tx, admin: AdminRecord, actorId: string | null) =>
    enqueue(tx, {
      name: 'auth.admin.created.v1',
      payload: encodePayload(
        'auth.admin.created.v1',
        create(AdminCreatedSchema, {
          adminId: admin.id,
          name: admin.name,
          email: admin.email,
          role: role(admin.role),
          actorId: actorId ?? '',
          createdAt: timestampFromDate(admin.createdAt),
        }),
      ),
    }),

  updated: (tx: Tx, admin: AdminRecord, actorId: string) =>
    enqueue(tx, {
      name: 'auth.admin.updated.v1',
      payload: encodePayload(
        'auth.admin.updated.v1',
        create(AdminUpdatedSchema, {
          adminId: admin.id,
          name: admin.name,
          email: admin.email,
          role: role(admin.role),
          actorId,
        }),
      ),
    }),

  statusChanged: (tx: Tx, admin: AdminRecord, actorId: string) =>
    enqueue(tx, {
      name: 'auth.admin.status-changed.v1',
      payload: encodePayload(
        'auth.admin.status-changed.v1',
        create(AdminStatusChangedSchema, { adminId: admin.id, status: status(admin.status), actorId }),
      ),
    }),

  /** `sealedPassword`: the temporary password sealed with the event secrets key, never the password itself. */
  passwordReset: (tx: Tx, admin: AdminRecord, sealedPassword: string, actorId: string) =>
    enqueue(tx, {
      name: 'auth.admin.password-reset.v1',
      payload: encodePayload(
        'auth.admin.password-reset.v1',
        create(AdminPasswordResetSchema, {
          adminId: admin.id,
          name: admin.name,
          email: admin.email,
          sealedTemporaryPassword: sealedPassword,
          actorId,
        }),
      ),
    }),

  /** A passkey, the authenticator app or the recovery codes of `admin` changed, by `actor` (themselves or a reset). */
  factorChanged: (
    tx: Tx,
    admin: AdminRecord,
    change: FactorChangeKind,
    actor: AdminRecord,
    factorName = '',
  ) =>
    enqueue(tx, {
      name: 'auth.admin.factor-changed.v1',
      payload: encodePayload(
        'auth.admin.factor-changed.v1',
        create(AdminFactorChangedSchema, {
          adminId: admin.id,
          name: admin.name,
          email: admin.email,
          change: factorChange(change),
          factorName,
          actorId: actor.id,
          actorName: actor.name,
          changedAt: timestampFromDate(new Date()),
        }),
      ),
    }),

  /** Something `admin`, an active super admin, must hear of, raised by the event `causeEventId`; the mail says what. */
  alertRequested: (tx: Tx, admin: AdminRecord, causeEventId: string, alert: AdminAlertRequested['alert']) =>
    enqueue(tx, {
      name: 'auth.admin-alert.requested.v1',
      payload: payloadOf('auth.admin-alert.requested.v1', {
        adminId: admin.id,
        name: admin.name,
        email: admin.email,
        causeEventId,
        alert,
      }),
    }),
};
