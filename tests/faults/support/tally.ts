/**
 * Counts a scenario's effects where they live: attempts and the students' result copies in the student database,
 * results in the results database, certificates in the report database, the mail log and sent claims in the
 * notification database, and the mail the SMTP server caught.
 */
import type { Pool } from 'pg';
import { eventually } from '@readiness/testing';
import { inFlight } from './broker';
import type { DataService, FaultStack } from './fault-stack';
import type { Student } from './students';

const CERTIFICATE_TEMPLATE = 'certificate-issued';
const CERTIFICATE_SUBJECT = 'Congratulations! Your certificate';
const INVITATION_SUBJECT = 'You are invited';

/** One student's effects; a student who submitted once and was scored once has 1 everywhere it applies. */
export interface StudentTally {
  /** Attempts, and those submitted or scored. */
  attempts: number;
  submitted: number;
  /** The student service's copy of the student's results. */
  resultCopies: number;
  results: number;
  passed: number;
  /** Score and percentage of the results, joined (`12/16 75%`), for comparing runs. */
  scores: string;
  certificates: number;
  certificatesIssued: number;
  /** Certificate mails in the delivery log, and of those the ones marked sent. */
  certificateMailsLogged: number;
  certificateMailsSent: number;
  /** Mails the SMTP server received. */
  certificateMailsCaught: number;
  invitationMailsCaught: number;
}

const emptyTally = (): StudentTally => ({
  attempts: 0,
  submitted: 0,
  resultCopies: 0,
  results: 0,
  passed: 0,
  scores: '',
  certificates: 0,
  certificatesIssued: 0,
  certificateMailsLogged: 0,
  certificateMailsSent: 0,
  certificateMailsCaught: 0,
  invitationMailsCaught: 0,
});

async function rows<R>(pool: Pool, text: string, ids: string[]): Promise<R[]> {
  return (await pool.query(text, [ids])).rows as R[];
}

export async function tally(fault: FaultStack, students: Student[]): Promise<Map<string, StudentTally>> {
  const ids = students.map((s) => s.id);
  const out = new Map(students.map((s) => [s.id, emptyTally()]));
  const add = (id: string, fields: Partial<StudentTally>) => Object.assign(out.get(id)!, fields);
  const { db } = fault;

  for (const r of await rows<{ id: string; attempts: number; submitted: number }>(
    db.student,
    `SELECT student_id::text AS id, count(*)::int AS attempts,
            count(*) FILTER (WHERE status IN ('submitted', 'scored'))::int AS submitted
       FROM attempts WHERE student_id = ANY($1::uuid[]) GROUP BY student_id`,
    ids,
  ))
    add(r.id, { attempts: r.attempts, submitted: r.submitted });
  for (const r of await rows<{ id: string; copies: number }>(
    db.student,
    `SELECT student_id::text AS id, count(*)::int AS copies FROM results
      WHERE student_id = ANY($1::uuid[]) GROUP BY student_id`,
    ids,
  ))
    add(r.id, { resultCopies: r.copies });
  for (const r of await rows<{ id: string; results: number; passed: number; scores: string }>(
    db.results,
    `SELECT student_id AS id, count(*)::int AS results, count(*) FILTER (WHERE passed)::int AS passed,
            string_agg(score || '/' || total_points || ' ' || percentage || '%', ',' ORDER BY attempt_number) AS scores
       FROM results WHERE student_id = ANY($1::text[]) GROUP BY student_id`,
    ids,
  ))
    add(r.id, { results: r.results, passed: r.passed, scores: r.scores });
  for (const r of await rows<{ id: string; certificates: number; issued: number }>(
    db.report,
    `SELECT student_id AS id, count(*)::int AS certificates,
            count(*) FILTER (WHERE status = 'issued')::int AS issued
       FROM certificates WHERE student_id = ANY($1::text[]) GROUP BY student_id`,
    ids,
  ))
    add(r.id, { certificates: r.certificates, certificatesIssued: r.issued });
  for (const r of await rows<{ id: string; logged: number; sent: number }>(
    db.notification,
    `SELECT d.student_id::text AS id, count(*)::int AS logged,
            count(*) FILTER (WHERE c.status = 'done')::int AS sent
       FROM deliveries d
       LEFT JOIN effect_claims c ON c.scope = 'mail:' || d.template AND c.key = d.event_id::text
      WHERE d.student_id = ANY($1::uuid[]) AND d.template = '${CERTIFICATE_TEMPLATE}'
      GROUP BY d.student_id`,
    ids,
  ))
    add(r.id, { certificateMailsLogged: r.logged, certificateMailsSent: r.sent });

  const byEmail = new Map(students.map((s) => [s.email, s.id]));
  for (const mail of fault.stack.mail.list()) {
    for (const to of mail.to) {
      const id = byEmail.get(to);
      if (!id) continue;
      const t = out.get(id)!;
      if (mail.subject.startsWith(CERTIFICATE_SUBJECT)) t.certificateMailsCaught++;
      else if (mail.subject.startsWith(INVITATION_SUBJECT)) t.invitationMailsCaught++;
    }
  }
  return out;
}

/** What a student's effects must be after one accepted submit: one of everything, a certificate and its mail on a pass. */
export function expectedTally(s: Student): Omit<StudentTally, 'scores'> {
  const pass = s.passes ? 1 : 0;
  return {
    attempts: 1,
    submitted: 1,
    resultCopies: 1,
    results: 1,
    passed: pass,
    certificates: pass,
    certificatesIssued: pass,
    certificateMailsLogged: pass,
    certificateMailsSent: pass,
    certificateMailsCaught: pass,
    invitationMailsCaught: 1,
  };
}

/** Every difference from one effect each, as readable lines (empty when the scenario lost and duplicated nothing). */
export function violations(students: Student[], tallies: Map<string, StudentTally>): string[] {
  const lines: string[] = [];
  for (const s of students) {
    const got = tallies.get(s.id)!;
    const want = expectedTally(s);
    for (const key of Object.keys(want) as Array<keyof typeof want>) {
      if (got[key] !== want[key])
        lines.push(
          `student ${s.index} (${s.passes ? 'pass' : 'fail'}): ${key} ${got[key]}, expected ${want[key]}`,
        );
    }
  }
  return lines;
}

export interface ScenarioTotals {
  accepted: number;
  attempts: number;
  scored: number;
  certificates: number;
  certificateMails: number;
  /** Effects beyond one per student: extra attempts, results, certificates or mails. */
  duplicateEffects: number;
  /** Effects missing: accepted submissions without a result, passes without a certificate or mail. */
  missingEffects: number;
}

export function totals(students: Student[], tallies: Map<string, StudentTally>): ScenarioTotals {
  const sum = (f: (t: StudentTally) => number) => students.reduce((n, s) => n + f(tallies.get(s.id)!), 0);
  const passes = students.filter((s) => s.passes).length;
  const over = (got: number, want: number) => Math.max(0, got - want);
  const under = (got: number, want: number) => Math.max(0, want - got);
  const per = (f: (t: StudentTally, s: Student) => number) =>
    students.reduce((n, s) => n + f(tallies.get(s.id)!, s), 0);
  return {
    accepted: students.length,
    attempts: sum((t) => t.submitted),
    scored: sum((t) => t.results),
    certificates: sum((t) => t.certificatesIssued),
    certificateMails: sum((t) => t.certificateMailsCaught),
    duplicateEffects: per(
      (t, s) =>
        over(t.attempts, 1) +
        over(t.results, 1) +
        over(t.certificates, s.passes ? 1 : 0) +
        over(t.certificateMailsCaught, s.passes ? 1 : 0) +
        over(t.invitationMailsCaught, 1),
    ),
    missingEffects:
      per((t, s) => under(t.results, 1) + under(t.certificatesIssued, s.passes ? 1 : 0)) +
      under(
        sum((t) => Math.min(t.certificateMailsCaught, 1)),
        passes,
      ),
  };
}

/** Outbox rows not yet confirmed by the broker, per service that publishes. */
async function pendingOutbox(fault: FaultStack): Promise<Record<string, number>> {
  const pending: Record<string, number> = {};
  for (const svc of ['student', 'results', 'report'] as DataService[]) {
    const { rows: r } = await fault.db[svc].query<{ n: number }>(
      'SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NULL',
    );
    if (r[0]!.n > 0) pending[svc] = r[0]!.n;
  }
  const { rows: certs } = await fault.db.report.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM certificates WHERE status = 'pending'",
  );
  if (certs[0]!.n > 0) pending['report certificates'] = certs[0]!.n;
  return pending;
}

/**
 * Waits until every accepted submission has all its effects, then until nothing is left anywhere (outboxes,
 * pending certificates, queues and wait queues) for a few seconds in a row, so that a late duplicate still
 * shows in the count that follows.
 */
export async function settle(
  fault: FaultStack,
  students: Student[],
  options: { timeoutMs: number },
): Promise<Map<string, StudentTally>> {
  const passes = students.filter((s) => s.passes).length;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 500));
  await eventually(
    async () => {
      await pause();
      const t = totals(students, await tally(fault, students));
      if (t.scored < students.length || t.certificates < passes || t.certificateMails < passes)
        throw new Error(
          `scored ${t.scored}/${students.length}, certificates ${t.certificates}/${passes}, mails ${t.certificateMails}/${passes}`,
        );
      return true;
    },
    'every effect of the accepted submissions',
    options.timeoutMs,
  );
  let quietSince = 0;
  await eventually(
    async () => {
      await pause();
      const busy = { ...(await pendingOutbox(fault)), ...(await inFlight(fault.vhost)) };
      if (Object.keys(busy).length > 0) {
        quietSince = 0;
        throw new Error(`still in flight: ${JSON.stringify(busy)}`);
      }
      quietSince ||= Date.now();
      // The management API refreshes its queue figures every 5 s: quiet for longer than that.
      if (Date.now() - quietSince < 6_000) throw new Error('quiet, not yet for long');
      return true;
    },
    'queues and outboxes to drain',
    options.timeoutMs,
  );
  return tally(fault, students);
}
