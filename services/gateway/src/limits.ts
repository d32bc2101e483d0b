import { createHash } from 'node:crypto';
import client from 'prom-client';
import { createRateLimiter, type RateLimiter, type Redis } from '@readiness/kit/cache';
import { AppError } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import type { GatewayConfig } from './config';
import { studentToken, type RateLimitName, type RouteRule } from './routes';

/** Every limit the gateway keeps: the API-wide one, the per-route ones, and the student flow's per-token ones. */
export type LimitName = 'api' | RateLimitName | 'studentToken' | 'studentTokenWrite';

/**
 * The gateway's rate limits, counted in Redis (shared by every replica) or in this process's memory, and the
 * rule that says which limits a request counts against.
 */
export function gatewayLimits(deps: {
  config: GatewayConfig;
  redis: Redis | undefined;
  logger: Logger;
  registry: client.Registry;
}) {
  const { config } = deps;
  const rateLimited = new client.Counter({
    name: 'gateway_rate_limited_total',
    help: 'Requests refused with 429, by limit',
    labelNames: ['limit'],
    registers: [deps.registry],
  });
  const store = deps.redis ? ('redis' as const) : ('memory' as const);
  const limiter = (keyPrefix: string, points: number, blockDurationSeconds = 0): RateLimiter =>
    createRateLimiter({
      store,
      redis: deps.redis,
      keyPrefix: `gateway:${keyPrefix}`,
      points,
      durationSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
      blockDurationSeconds,
      logger: deps.logger,
    });
  const limits: Record<LimitName, RateLimiter> = {
    api: limiter('api', config.RATE_LIMIT_API),
    // A guesser who keeps going after the limit stays blocked for a while longer.
    login: limiter('login', config.RATE_LIMIT_LOGIN, 5 * config.RATE_LIMIT_WINDOW_SECONDS),
    student: limiter('student', config.RATE_LIMIT_STUDENT, 5 * config.RATE_LIMIT_WINDOW_SECONDS),
    studentToken: limiter('student-token', config.RATE_LIMIT_STUDENT_TOKEN),
    studentWrite: limiter('student-write', config.RATE_LIMIT_STUDENT_WRITES),
    studentTokenWrite: limiter('student-token-write', config.RATE_LIMIT_STUDENT_TOKEN_WRITES),
  };
  /** The student flow's limits per address and, when the path carries a token, per token as well. */
  const perToken = (path: string, address: string, byAddress: LimitName, byToken: LimitName) => {
    const token = studentToken(path);
    const counted: Array<[LimitName, string]> = [[byAddress, address]];
    if (token) counted.push([byToken, createHash('sha256').update(token).digest('base64url').slice(0, 22)]);
    return counted;
  };
  return {
    store,
    /** The limits a request counts against, each with its key: the address, or a digest of the student's token. */
    limitsFor(path: string, rule: RouteRule | undefined, address: string): Array<[LimitName, string]> {
      switch (rule?.rateLimit) {
        case 'student':
          return perToken(path, address, 'student', 'studentToken');
        case 'studentWrite':
          return perToken(path, address, 'studentWrite', 'studentTokenWrite');
        case 'login':
          return [
            ['api', address],
            ['login', address],
          ];
        default:
          return path.startsWith('/api/') ? [['api', address]] : [];
      }
    },
    /** Counts one request; a refused one is a 429 with the seconds to wait. */
    async consume(name: LimitName, key: string) {
      const decision = await limits[name].consume(key);
      if (decision.allowed) return;
      rateLimited.inc({ limit: name });
      throw new AppError('rate_limited', 'Too many requests, please try again later', 429, {
        details: { retryAfterSeconds: decision.retryAfterSeconds },
      });
    },
  };
}
