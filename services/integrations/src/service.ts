import path from 'node:path';
import { LTI_LAUNCH_TICKET_PURPOSE } from '@readiness/contracts';
import { loadSigningKeys } from '@readiness/kit/auth';
import { createRateLimiter } from '@readiness/kit/cache';
import { loadEventSecretBox } from '@readiness/kit/outbox';
import { answerStudentExport, createJobWaker, defineService, every } from '@readiness/kit/runtime';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { configSchema } from './config';
import { eventRoutes } from './domain/event-routes';
import { studentExportFiles } from './data-access/student-export-repository';
import { reachableUrl } from './domain/context';
import type { GradesDeps } from './domain/grades';
import { platformTokens } from './domain/platform-token';
import { systemResolver, type HostResolver } from './domain/webhooks/safe-target';
import { SWEEP_INTERVAL_MS, sweepLapsed } from './domain/sweep-lapsed';
import { integrationsApi } from './entry-points/http/api';
import { gradeConsumers, gradeJob } from './entry-points/messaging/consumers';
import { settleJob } from './entry-points/messaging/event-routes';
import { subscribedTypes, webhookConsumer, webhookJob } from './entry-points/messaging/webhook-consumers';

/** The secret box's purpose for webhook endpoints' secrets (the services' shared key, a purpose of its own). */
const WEBHOOK_SECRET_PURPOSE = 'readiness webhook secret v1';

/** What an in-process caller may set: where webhook host names lead (tests stand in for DNS). */
export interface IntegrationsOptions {
  resolve?: HostResolver;
}

/**
 * The integrations service: the LMS connections (LTI 1.3 registrations), the launches from them, and the scores
 * sent back to the LMS's gradebook (AGS). A learner's launch ends at the student service, which the browser
 * reaches with a sealed ticket; the scores come from results' events naming the launch: no service calls another.
 * Its `/api/admin` routes are guarded by the runtime; the LTI routes are public (the LMS's browser posts them).
 */
export const integrationsService = defineService({
  name: 'integrations',
  config: configSchema,
  migrations: path.join(__dirname, 'data-access/migrations'),
  openapi: integrationsApi.openapi,
  // Redis, when there is one, counts the login limit across replicas.
  uses: { kv: true },
  async setup(
    { config, logger, database, redis, bus, handleOnce },
    options: IntegrationsOptions | undefined,
  ) {
    const resolve = options?.resolve ?? systemResolver;
    const toolKeys = await loadSigningKeys({
      privateKeyPem: config.LTI_PRIVATE_KEY,
      previousPublicKeysPem: config.LTI_PREVIOUS_PUBLIC_KEYS,
      dataDir: config.DATA_DIR,
      file: path.join('integrations', 'lti-key.pem'),
      settings: { privateKey: 'LTI_PRIVATE_KEY', previousPublicKeys: 'LTI_PREVIOUS_PUBLIC_KEYS' },
      logger,
    });
    // One key set per LMS key URL, kept for the process: jose caches it and fetches it again (at most every 30 s)
    // when an id_token names a key it does not hold yet, as a rotating LMS does.
    const keySets = new Map<string, JWTVerifyGetKey>();
    const platformKeys = (jwksUrl: string) => {
      let keys = keySets.get(jwksUrl);
      if (!keys) {
        keys = createRemoteJWKSet(new URL(jwksUrl), {
          timeoutDuration: 5_000,
          cooldownDuration: 30_000,
          cacheMaxAge: 10 * 60_000,
        });
        keySets.set(jwksUrl, keys);
      }
      return keys;
    };
    const webhookSecrets = loadEventSecretBox({ config, logger, purpose: WEBHOOK_SECRET_PURPOSE });
    const routes = eventRoutes(database, bus, logger);
    const deps = {
      database,
      logger,
      toolKeys,
      launchTickets: loadEventSecretBox({ config, logger, purpose: LTI_LAUNCH_TICKET_PURPOSE }),
      platformKeys,
      publicOrigin: config.PUBLIC_ORIGIN,
      allowHttpLoopback: config.LTI_ALLOW_HTTP_LOOPBACK,
      loginTtlSeconds: config.LTI_LOGIN_TTL_SECONDS,
      clockSkewSeconds: config.LTI_CLOCK_SKEW_SECONDS,
      loginLimit: createRateLimiter({
        store: redis ? 'redis' : 'memory',
        redis,
        keyPrefix: 'lti-login:address',
        points: config.LTI_LOGIN_RATE_LIMIT,
        durationSeconds: 60,
        logger,
      }),
      webhooks: {
        database,
        secrets: webhookSecrets,
        allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
        resolve,
        rotationOverlapMs: 24 * 3_600_000,
        routes,
      },
      routes,
    };
    const grades: GradesDeps = {
      ...deps,
      tokens: platformTokens(toolKeys, {
        allowInsecure: (url) => url.protocol === 'http:' && reachableUrl(deps, url),
      }),
      handleOnce: (consumer, eventId, effect) => handleOnce(consumer, eventId, effect),
      giveUpMs: config.LTI_GRADE_GIVE_UP_HOURS * 3_600_000,
      retryBaseMs: config.LTI_GRADE_RETRY_BASE_MS,
    };
    // The senders run at once when this replica queues their work: a consumer's commit, or an admin's change
    // ("Send again", a test event, an endpoint enabled again), told by any successful write under their paths.
    const gradeWaker = createJobWaker();
    const webhookWaker = createJobWaker();
    const subscribed = subscribedTypes(database);
    return {
      routes: (app) => {
        app.use(['/api/admin/lti', '/api/admin/webhooks'], (req, res, next) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') {
            res.on('finish', () => {
              if (res.statusCode < 400) {
                subscribed.forget();
                gradeWaker.wake();
                webhookWaker.wake();
              }
            });
          }
          next();
        });
        integrationsApi.routes(deps)(app);
      },
      subscriptions: [
        ...gradeConsumers(grades, gradeWaker),
        webhookConsumer(grades.handleOnce, webhookWaker, subscribed),
        answerStudentExport('integrations', { handleOnce }, (tx, student) =>
          studentExportFiles(tx, student.studentId),
        ),
      ],
      stop: () => routes.stop(),
      jobs: [
        every('lti-sweep', SWEEP_INTERVAL_MS, () => sweepLapsed({ database, logger })),
        settleJob(routes),
        gradeJob(grades, config.LTI_GRADE_INTERVAL_MS, gradeWaker),
        webhookJob(
          {
            database,
            logger,
            secrets: webhookSecrets,
            allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
            resolve,
            giveUpMs: config.WEBHOOK_GIVE_UP_HOURS * 3_600_000,
            retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
            routes,
          },
          config.WEBHOOK_INTERVAL_MS,
          webhookWaker,
        ),
      ],
    };
  },
});
