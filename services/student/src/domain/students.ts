import type { Database } from '@readiness/kit/db';
import { conflict, notFound, unavailable } from '@readiness/kit/errors';
import { enqueue, enqueueMany, type SecretBox } from '@readiness/kit/outbox';
import {
  audit,
  deleteStudent,
  findByTokenHash,
  findStudent,
  insertStudents,
  listStudents,
  extendInvitation,
  renewInvitation,
  setExtraTime,
  takenEmails,
  type NewStudent,
  type StudentRecord,
  type StudentStatus,
} from '../data-access/students-repository';
import { activeVersionSummary } from '../data-access/versions-repository';
import {
  INVITATION_RESENT,
  STUDENT_DELETED,
  STUDENT_INVITED,
  deletedPayload,
  invitedPayload,
  resentPayload,
} from './events';
import { inviteUrl, newInviteToken, tokenHash } from './tokens';

export const ALREADY_INVITED_MESSAGE = 'A student with this email is already invited';
export const STUDENT_NOT_FOUND_MESSAGE = 'Student not found';
export const INVALID_INVITATION_MESSAGE = 'Invalid or expired invitation link';

export interface StudentInput {
  name: string;
  email: string;
  phoneNumber: string | null;
  extraTimePercent: number;
}

/** A student as the admin list shows it: the token opened from its sealed copy. */
export interface StudentView extends Omit<StudentRecord, 'sealedToken'> {
  inviteToken: string;
  inviteUrl: string;
  expired: boolean;
}

export interface ImportRowProblem {
  line: number;
  email: string;
  message: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The student service's admin use cases. Every change writes its audit row and event in one transaction. */
export function createStudents(deps: {
  database: Database;
  secrets: SecretBox;
  publicOrigin: string;
  inviteTtlDays: number;
  notifyOutbox(): void;
  /** Removes every answer file a student uploaded (their prefix in the bucket). */
  removeStudentFiles(studentId: string): Promise<void>;
}) {
  const { database, secrets } = deps;

  const view = (s: StudentRecord): StudentView => {
    const { sealedToken, ...rest } = s;
    const token = secrets.open(sealedToken);
    return {
      ...rest,
      inviteToken: token,
      inviteUrl: inviteUrl(deps.publicOrigin, token),
      expired: s.status === 'invited' && s.expiresAt.getTime() <= Date.now(),
    };
  };

  const openedToken = (sealed: string): string | undefined => {
    try {
      return secrets.open(sealed);
    } catch {
      return undefined;
    }
  };

  const expiryFromNow = () => new Date(Date.now() + deps.inviteTtlDays * DAY_MS);

  const freshInvitation = () => {
    const token = newInviteToken();
    return {
      token,
      tokenHash: tokenHash(token),
      sealedToken: secrets.seal(token),
      expiresAt: expiryFromNow(),
    };
  };

  const invitation = (
    s: StudentRecord,
    token: string,
    actorId: string,
    assessment: { title: string; timeLimitMinutes: number } | undefined,
  ) => ({
    studentId: s.id,
    name: s.name,
    email: s.email,
    sealedInvitationUrl: secrets.seal(inviteUrl(deps.publicOrigin, token)),
    assessment,
    extraTimePercent: s.extraTimePercent,
    actorId,
    expiresAt: s.expiresAt,
  });

  /** Inserts the students with their invitation events; throws 409 (nothing kept) when an e-mail is taken. */
  async function inviteAll(
    inputs: StudentInput[],
    actorId: string,
    action: string,
  ): Promise<StudentRecord[]> {
    const prepared = inputs.map((input) => ({ input, ...freshInvitation() }));
    const created = await database.transaction(async (tx) => {
      const assessment = await activeVersionSummary(tx);
      const rows: NewStudent[] = prepared.map((p) => ({
        ...p.input,
        tokenHash: p.tokenHash,
        sealedToken: p.sealedToken,
        expiresAt: p.expiresAt,
      }));
      const { inserted, taken } = await insertStudents(tx, rows);
      if (taken) throw conflict(ALREADY_INVITED_MESSAGE, 'already_invited');
      await enqueueMany(
        tx,
        inserted.map((s, i) => ({
          name: STUDENT_INVITED,
          payload: invitedPayload(invitation(s, prepared[i]!.token, actorId, assessment)),
        })),
      );
      if (inserted.length === 1) {
        await audit(tx, {
          actorId,
          action,
          studentId: inserted[0]!.id,
          details: { email: inserted[0]!.email },
        });
      } else {
        await audit(tx, { actorId, action, details: { count: inserted.length } });
      }
      return inserted;
    });
    deps.notifyOutbox();
    return created;
  }

  return {
    async list(q: { search?: string; status?: StudentStatus; page: number; limit: number }) {
      const { students, total } = await listStudents(database.db, q);
      return { students: students.map(view), total };
    },

    async invite(input: StudentInput, actorId: string): Promise<StudentView> {
      const [created] = await inviteAll([input], actorId, 'student.invited');
      return view(created!);
    },

    async resend(id: string, actorId: string): Promise<StudentView> {
      const renewed = await database.transaction(async (tx) => {
        const current = await findStudent(tx, id, true);
        if (!current) throw notFound(STUDENT_NOT_FOUND_MESSAGE, 'student_not_found');
        // The mail carries the link the student already has, so every earlier mail keeps working: a student who
        // started keeps it as it is, an unstarted invitation keeps it valid for INVITE_TTL_DAYS more, and only an
        // expired one (or one whose sealed copy no longer opens, after EVENT_SECRETS_KEY changed) gets a new link.
        const kept = openedToken(current.sealedToken);
        const expired = current.expiresAt.getTime() <= Date.now();
        let student = current;
        let token = kept;
        if (current.status === 'invited' && (expired || kept === undefined)) {
          const fresh = freshInvitation();
          student = await renewInvitation(tx, id, fresh);
          token = fresh.token;
        } else if (current.status === 'invited') {
          student = await extendInvitation(tx, id, expiryFromNow());
        }
        if (token === undefined)
          throw unavailable('The invitation link cannot be read: check EVENT_SECRETS_KEY');
        const assessment = await activeVersionSummary(tx);
        await enqueue(tx, {
          name: INVITATION_RESENT,
          payload: resentPayload(invitation(student, token, actorId, assessment)),
        });
        await audit(tx, {
          actorId,
          action: 'student.invitation-resent',
          studentId: id,
          details: { email: student.email },
        });
        return student;
      });
      deps.notifyOutbox();
      return view(renewed);
    },

    async setExtraTime(id: string, percent: number, actorId: string): Promise<StudentView> {
      const updated = await database.transaction(async (tx) => {
        const student = await setExtraTime(tx, id, percent);
        if (!student) throw notFound(STUDENT_NOT_FOUND_MESSAGE, 'student_not_found');
        await audit(tx, {
          actorId,
          action: 'student.extra-time-set',
          studentId: id,
          details: { extraTimePercent: percent },
        });
        return student;
      });
      return view(updated);
    },

    async remove(id: string, actorId: string): Promise<void> {
      await database.transaction(async (tx) => {
        const gone = await deleteStudent(tx, id);
        if (!gone) throw notFound(STUDENT_NOT_FOUND_MESSAGE, 'student_not_found');
        await enqueue(tx, {
          name: STUDENT_DELETED,
          payload: deletedPayload({ studentId: id, email: gone.email, actorId }),
        });
        // The audit keeps that a student was erased, not who they were.
        await audit(tx, { actorId, action: 'student.deleted', studentId: id });
      });
      deps.notifyOutbox();
      await deps.removeStudentFiles(id);
    },

    /**
     * Checks every row (line numbers as in the file, the header being line 1) and, unless `dryRun`, invites the
     * valid ones all together or none.
     */
    async importRows(
      rows: Array<{
        line: number;
        parsed: { ok: true; value: StudentInput } | { ok: false; email: string; message: string };
      }>,
      options: { dryRun: boolean; actorId: string },
    ) {
      const problems: ImportRowProblem[] = [];
      const seen = new Map<string, number>();
      const candidates: Array<{ line: number; value: StudentInput }> = [];
      for (const row of rows) {
        if (!row.parsed.ok) {
          problems.push({ line: row.line, email: row.parsed.email, message: row.parsed.message });
          continue;
        }
        const first = seen.get(row.parsed.value.email);
        if (first !== undefined) {
          problems.push({
            line: row.line,
            email: row.parsed.value.email,
            message: `Duplicate email in the file (first on line ${first})`,
          });
          continue;
        }
        seen.set(row.parsed.value.email, row.line);
        candidates.push({ line: row.line, value: row.parsed.value });
      }
      const taken = await takenEmails(
        database.db,
        candidates.map((c) => c.value.email),
      );
      const valid = candidates.filter((c) => {
        if (!taken.has(c.value.email)) return true;
        problems.push({ line: c.line, email: c.value.email, message: ALREADY_INVITED_MESSAGE });
        return false;
      });
      problems.sort((a, b) => a.line - b.line);
      let imported = 0;
      if (!options.dryRun && valid.length > 0) {
        imported = (
          await inviteAll(
            valid.map((v) => v.value),
            options.actorId,
            'student.imported',
          )
        ).length;
      }
      return { dryRun: options.dryRun, total: rows.length, valid: valid.length, imported, problems };
    },

    /** The student behind a link: unknown, expired and deleted tokens are one and the same 404. */
    async byToken(token: string) {
      const student = await findByTokenHash(database.db, tokenHash(token));
      if (!student || (student.status === 'invited' && student.expiresAt.getTime() <= Date.now())) {
        throw notFound(INVALID_INVITATION_MESSAGE, 'not_found');
      }
      return student;
    },
  };
}

export type Students = ReturnType<typeof createStudents>;
