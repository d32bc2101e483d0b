import { adminAuthEnv, dataServiceEnv } from '@readiness/kit/config';
import { checkObjectStorage, objectStorageEnv } from '@readiness/kit/storage';
import { z } from 'zod';

const MB = 1024 * 1024;

/** Every key is the environment variable it reads. */
export const configSchema = z
  .object({
    ...dataServiceEnv,
    ...adminAuthEnv,
    ...objectStorageEnv,
    /** Days an invitation stays valid when the student never starts; resending renews it. */
    INVITE_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(60),
    /** The site's own origin: invitation links are `{PUBLIC_ORIGIN}/assessment/{inviteToken}`. */
    PUBLIC_ORIGIN: z.string().url().default('http://localhost:8080'),
    /** Largest CSV file an import accepts, in bytes (5 MB, about 50,000 rows). */
    STUDENT_IMPORT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(5 * MB),
    /** Most students one CSV import may invite (the rest of a larger file is not read: split it). */
    STUDENT_IMPORT_MAX_ROWS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    /** Largest answer file a student may upload, in bytes (10 MB). */
    STUDENT_UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(64 * MB)
      .default(10 * MB),
    /** Seconds after an attempt's deadline during which a submit is still taken whole (network latency). */
    SUBMIT_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(30),
    /** How long a submit waits for its result before answering 202 (the completion page then fetches it). */
    SUBMIT_RESULT_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(5_000),
    /**
     * The most time administrators may add to one attempt on the Live screen, all extensions together, as a multiple
     * of the attempt's time limit (2: a 30-minute test can be given 60 minutes more; 0: no time can be added).
     */
    ADDED_TIME_MAX_MULTIPLE: z.coerce.number().min(0).max(20).default(2),
    /**
     * How often each replica reads the clocks of the attempts whose pages it streams to (one statement for all of
     * them, none while no page is connected): an administrator's extension or end reaches the page within it.
     */
    ATTEMPT_STREAM_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(2_500),
    /** Event streams one student link may hold open on a replica at once (a student's tabs); one more is a 429. */
    ATTEMPT_STREAMS_PER_LINK: z.coerce.number().int().min(1).max(100).default(3),
    /**
     * Event streams one client address (IPv6: its /64) may hold open on a replica at once, all links together: room for a
     * classroom behind one NAT address. The address is the socket's unless `TRUSTED_PROXIES` names the gateway.
     */
    ATTEMPT_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(100),
    /** Event streams a replica holds open at once, all students together; one more is a 429. */
    ATTEMPT_STREAMS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
    /**
     * Days after the invitation (or its last resend) at which the reminder job reminds a student who has not started,
     * comma-separated (`3,7`; empty: none). This and the two below are the defaults: an administrator's saved reminder
     * settings (`PUT /api/admin/students/reminder-settings`) replace them.
     */
    REMINDER_AFTER_DAYS: z
      .string()
      .default('3,7')
      .transform((v) =>
        v
          .split(',')
          .map((d) => d.trim())
          .filter(Boolean)
          .map(Number),
      )
      .pipe(z.array(z.number().int().min(1).max(365)).max(10)),
    /** Hours before an unstarted invitation's link expires at which the job sends one more reminder (0: none). */
    REMINDER_BEFORE_EXPIRY_HOURS: z.coerce.number().int().min(0).max(720).default(24),
    /** The most reminders the job sends one student, administrators' included (0: the job sends none). */
    REMINDER_MAX: z.coerce.number().int().min(0).max(20).default(3),
    /** How often each replica's reminder job looks for students who are owed a reminder (each claims rows). */
    REMINDER_JOB_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(24 * 60 * 60 * 1000)
      .default(15 * 60 * 1000),
    /**
     * How often each replica's retention job erases the students whose last activity is older than the data retention
     * setting allows (off by default: a super admin switches it on in Admin Management → Data retention).
     */
    RETENTION_JOB_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(24 * 60 * 60 * 1000)
      .default(60 * 60 * 1000),
    /** How long a student's data export can be downloaded after it was requested; then its parts are removed. */
    STUDENT_EXPORT_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    /** How often the deadline job looks for attempts nobody submitted (every replica runs it; each claims rows). */
    DEADLINE_JOB_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /**
     * The waiting room at the start (docs/waiting-room.md). `measured`: a new attempt waits its turn when the replicas'
     * measured pressure (event loop delay, database connections) slows the line, within an administrator's limit;
     * `limit-only`: only an administrator's limit forms a line (the test suites, whose machine is busy with the suite
     * itself); `off`: every Start starts at once.
     */
    WAITING_ROOM: z.enum(['measured', 'limit-only', 'off']).default('measured'),
    /** The fastest the line moves when no administrator's limit is set, in starts a minute. */
    WAITING_ROOM_MAX_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(12_000),
    /** The slowest pressure brings the line to, in starts a minute (an administrator's lower limit still applies). */
    WAITING_ROOM_MIN_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
    /** How long a student's turn, once come, waits for their page to start (a page left in the background). */
    WAITING_ROOM_HOLD_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    /** The event loop delay (99th percentile over a second) above which a replica reports pressure. */
    WAITING_ROOM_LAG_MS: z.coerce.number().int().min(10).max(60_000).default(200),
    /** The time of the students' autosaves and submits (90th percentile over a second) above which it does. */
    WAITING_ROOM_CALL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
    /**
     * How long, at least, the other services' background work keeps yielding after the line empties (then until every
     * replica is cool, two minutes at most): the students let in last make their load seconds after their Start.
     */
    WAITING_ROOM_DRAIN_SECONDS: z.coerce.number().int().min(0).max(600).default(30),
  })
  .superRefine((c, ctx) => {
    checkObjectStorage(c, ctx);
  });

export type StudentConfig = z.infer<typeof configSchema>;
export type StudentConfigInput = z.input<typeof configSchema>;
