import { createHash } from 'node:crypto';
import client from 'prom-client';
import {
  createRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  type Redis,
} from '@readiness/kit/cache';
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
  const refuseIfDenied = (name: LimitName, decision: RateLimitDecision) => {
    if (decision.allowed) return;
    rateLimited.inc({ limit: name });
    throw new AppError('rate_limited', 'Too many requests, please try again later', 429, {
      details: { retryAfterSeconds: decision.retryAfterSeconds },
    });
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
      // The same answer for everyone, from memory (the waiting room's line): a school of waiting pages behind one
      // address must not be blocked by it, and a flood of it costs the upstream nothing.
      if (rule?.sharedForMs || rule?.sharedStream) return [];
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
      refuseIfDenied(name, await limits[name].consume(key));
    },
    /**
     * Counts one request against each of its limits, in one Redis round trip (the client pipelines the commands
     * of one turn): the first limit that refuses answers, and the limits after it get their point back, as if they
     * had been counted one after the other. A classroom refused by its address's limit does not use up its
     * students' own budgets. (A block that a later limit entered with this point stays: only a client already
     * over the first limit meets it.)
     */
    async consumeAll(counted: Array<[LimitName, string]>) {
      if (counted.length === 0) return;
      const decisions = await Promise.all(
        counted.map(async ([name, key]) => ({ name, key, decision: await limits[name].consume(key) })),
      );
      const refused = decisions.findIndex((d) => !d.decision.allowed);
      if (refused === -1) return;
      await Promise.all(decisions.slice(refused + 1).map((d) => limits[d.name].reward(d.key)));
      refuseIfDenied(decisions[refused]!.name, decisions[refused]!.decision);
    },
  };
}
