import os from 'node:os';
import path from 'node:path';
import { LTI_LAUNCH_TICKET_PURPOSE } from '@readiness/contracts';
import { loadEventSecretBox } from '@readiness/kit/outbox';
import { defineService } from '@readiness/kit/runtime';
import { Counter, Gauge } from 'prom-client';
import { configSchema } from './config';
import { answerPrefix, createAttempts } from './domain/attempts';
import { createStudentExports } from './domain/exports';
import { createStudents } from './domain/students';
import { createWaitingRoom } from './domain/waiting-room';
import { studentApi } from './entry-points/http/api';
import { deadlineJob } from './entry-points/jobs/deadline';
import { exportSweepJob } from './entry-points/jobs/export-sweep';
import { reminderJob } from './entry-points/jobs/reminders';
import { retentionJob } from './entry-points/jobs/retention';
import { waitingRoomJob } from './entry-points/jobs/waiting-room';
import { assessmentCopyConsumer } from './entry-points/messaging/assessment-copy';
import { exportPartsConsumer } from './entry-points/messaging/export-parts';
import { resultsCopyConsumers } from './entry-points/messaging/results-copy';

/**
 * The student service: invited students and their invitation links, the student flow by token (attempts with a
 * server-owned deadline, autosave, answer files, submit), its copy of every assessment version and of the
 * student's results. Its admin routes live under /api/admin/students, guarded by the runtime's admin guard.
 */
export const studentService = defineService({
  name: 'student',
  config: configSchema,
  migrations: path.join(__dirname, 'data-access/migrations'),
  openapi: studentApi.openapi,
  setup({ config, logger, database, storage, handleOnce, registry, kv }) {
    const streamsRefused = new Counter({
      name: 'student_event_streams_refused_total',
      help: "Students' event streams refused with 429, by the cap they met (link, address, total)",
      labelNames: ['cap'],
      registers: [registry],
    });
    const waitingRoom = createWaitingRoom({
      database,
      logger,
      registry,
      kv,
      mode: config.WAITING_ROOM,
      maxPerMinute: config.WAITING_ROOM_MAX_PER_MINUTE,
      minPerMinute: config.WAITING_ROOM_MIN_PER_MINUTE,
      holdMinutes: config.WAITING_ROOM_HOLD_MINUTES,
      drainSeconds: config.WAITING_ROOM_DRAIN_SECONDS,
      pressure: { lagMs: config.WAITING_ROOM_LAG_MS, callMs: config.WAITING_ROOM_CALL_MS },
    });
    const attempts = createAttempts({
      waitingRoom,
      database,
      storage,
      logger,
      graceSeconds: config.SUBMIT_GRACE_SECONDS,
      resultWaitMs: config.SUBMIT_RESULT_WAIT_MS,
      addedTimeMaxMultiple: config.ADDED_TIME_MAX_MULTIPLE,
      inviteTtlDays: config.INVITE_TTL_DAYS,
      streams: {
        checkEveryMs: config.ATTEMPT_STREAM_CHECK_MS,
        maxPerLink: config.ATTEMPT_STREAMS_PER_LINK,
        maxPerAddress: config.ATTEMPT_STREAMS_PER_ADDRESS,
        maxTotal: config.ATTEMPT_STREAMS_MAX,
        onRefused: (cap) => streamsRefused.inc({ cap }),
      },
    });
    new Gauge({
      name: 'student_event_streams_open',
      help: "Students' event streams this replica holds open (ATTEMPT_STREAMS_MAX at most)",
      registers: [registry],
      collect() {
        this.set(attempts.streams.size());
      },
    });
    const students = createStudents({
      database,
      logger,
      secrets: loadEventSecretBox({ config, logger }),
      launchTickets: loadEventSecretBox({ config, logger, purpose: LTI_LAUNCH_TICKET_PURPOSE }),
      publicOrigin: config.PUBLIC_ORIGIN,
      inviteTtlDays: config.INVITE_TTL_DAYS,
      reminders: {
        afterDays: config.REMINDER_AFTER_DAYS,
        beforeExpiryHours: config.REMINDER_BEFORE_EXPIRY_HOURS,
        max: config.REMINDER_MAX,
      },
      async removeStudentFiles(studentId) {
        await storage.removePrefix(answerPrefix(studentId)).catch((err: unknown) => {
          logger.warn({ err, studentId }, 'removing an erased student’s answer files failed');
        });
      },
    });
    const exports = createStudentExports({
      database,
      storage,
      logger,
      ttlMs: config.STUDENT_EXPORT_TTL_HOURS * 60 * 60 * 1000,
    });
    return {
      routes: studentApi.routes({
        students,
        attempts,
        exports,
        waitingRoom,
        logger,
        importMaxBytes: config.STUDENT_IMPORT_MAX_BYTES,
        importMaxRows: config.STUDENT_IMPORT_MAX_ROWS,
        uploadMaxBytes: config.STUDENT_UPLOAD_MAX_BYTES,
        // One folder per user: another account's folder of that name (a shared /tmp) cannot be entered.
        spoolDir: path.join(os.tmpdir(), `readiness-student-uploads-${process.getuid?.() ?? 'user'}`),
      }),
      subscriptions: [
        assessmentCopyConsumer(database),
        ...resultsCopyConsumers(attempts, handleOnce),
        exportPartsConsumer(exports),
      ],
      jobs: [
        deadlineJob(attempts, config.DEADLINE_JOB_INTERVAL_MS),
        reminderJob(students, config.REMINDER_JOB_INTERVAL_MS),
        retentionJob(students, config.RETENTION_JOB_INTERVAL_MS),
        exportSweepJob(exports),
        waitingRoomJob(waitingRoom),
      ],
      draining: () => {
        waitingRoom.stop();
        return attempts.streams.endAll();
      },
    };
  },
});
