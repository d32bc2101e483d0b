import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { holdTheEventLoop } from '@readiness/testing';
import { createLogger } from '../logger';
import {
  closeRedis,
  createMemoryStore,
  createRateLimiter,
  createRedis,
  createRedisStore,
  createRevocationList,
  REVOCATIONS_FILLED_KEY,
  type KeyValueStore,
  type RateLimiterOptions,
  type Redis,
} from './index';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger({ name: 'cache-test', level: 'silent' });

/** Keys of this file live under `test:<random>:` in the real Redis and are deleted afterwards. */
const filePrefix = `test:${randomUUID().slice(0, 8)}:`;
const redisClients: Redis[] = [];

function testRedis(): Redis {
  const client = createRedis({ url: REDIS_URL, keyPrefix: filePrefix, logger });
  redisClients.push(client);
  return client;
}

afterAll(async () => {
  const admin = createRedis({ url: REDIS_URL, keyPrefix: '', logger });
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${filePrefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await admin.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await closeRedis(admin);
  await Promise.all(redisClients.map(closeRedis));
});

/** Time as a backend sees it: `elapse` makes what it stores age by `ms` at once instead of waiting for it. */
interface Clock {
  elapse(ms: number): Promise<void>;
}

interface Backend {
  name: string;
  store(): KeyValueStore;
  limiter(options: Omit<RateLimiterOptions, 'store' | 'redis'>): ReturnType<typeof createRateLimiter>;
  /**
   * Runs `body` with a clock it can move. Expiry and windows are what a test proves here, so time must pass for
   * the store; it need not pass for the test. What is created inside `body` reads the clock (`Date.now`).
   */
  clocked(body: (clock: Clock) => Promise<void>): Promise<void>;
}

/**
 * Redis ages its keys by itself: moving its time forward is taking `ms` off the remaining time to live of every key
 * of this file (PTTL, then PEXPIRE, or DEL when that reaches zero), which is what Redis sees when `ms` have passed.
 * Keys without an expiry stay as they are.
 */
async function elapseRedis(ms: number): Promise<void> {
  const admin = createRedis({ url: REDIS_URL, keyPrefix: '', logger });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${filePrefix}*`, 'COUNT', 1000);
      for (const key of keys) {
        const remaining = await admin.pttl(key);
        if (remaining < 0) continue;
        if (remaining <= ms) await admin.del(key);
        else await admin.pexpire(key, remaining - ms);
      }
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await closeRedis(admin);
  }
}

const backends: Backend[] = [
  {
    name: 'redis',
    store: () => createRedisStore({ client: testRedis() }),
    limiter: (options) => createRateLimiter({ ...options, store: 'redis', redis: testRedis() }),
    clocked: (body) => body({ elapse: elapseRedis }),
  },
  {
    name: 'memory',
    // The store's clock is read at each call, so a store made before `clocked` follows the fake time inside it.
    store: () => createMemoryStore({ now: () => Date.now() }),
    limiter: (options) => createRateLimiter({ ...options, store: 'memory' }),
    // The memory limiter (rate-limiter-flexible) reads `Date.now` and expires keys with `setTimeout`: both are
    // faked, nothing else, so promises and I/O run as usual.
    async clocked(body) {
      jest.useFakeTimers({
        now: Date.now(),
        doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'hrtime', 'performance'],
      });
      try {
        await body({
          elapse: async (ms) => {
            jest.advanceTimersByTime(ms);
          },
        });
      } finally {
        jest.useRealTimers();
      }
    },
  },
];

function keyValueStoreContract(backend: Backend) {
  describe(`KeyValueStore contract (${backend.name})`, () => {
    let store: KeyValueStore;
    const key = (name: string) => `kv:${randomUUID()}:${name}`;

    beforeAll(() => {
      store = backend.store();
    });
    afterAll(() => store.close());

    test('when a value is set, then get and exists see it until it is deleted', async () => {
      const k = key('a');
      await store.set(k, 'value-1');

      expect(await store.get(k)).toBe('value-1');
      expect(await store.exists(k)).toBe(true);

      await store.del(k);
      expect(await store.get(k)).toBeNull();
      expect(await store.exists(k)).toBe(false);
    });

    test('when several keys are read at once, then each value comes back in order and absent keys are null', async () => {
      const [a, missing, b] = [key('many-a'), key('many-missing'), key('many-b')];
      await store.set(a, 'first');
      await store.set(b, 'second', 60);

      expect(await store.getMany([a, missing, b])).toEqual(['first', null, 'second']);
      expect(await store.getMany([])).toEqual([]);
    });

    test('when a value is set with a TTL, then it is there just before the TTL and gone after it', () =>
      backend.clocked(async (clock) => {
        const k = key('ttl');
        const other = key('other');
        await store.set(k, 'short', 2);
        await store.set(other, 'kept');

        await clock.elapse(1800);
        expect(await store.get(k)).toBe('short');
        await clock.elapse(400);
        expect(await store.get(k)).toBeNull();
        expect(await store.exists(k)).toBe(false);
        expect(await store.get(other)).toBe('kept');
      }));

    test('when a value is set again without a TTL, then it no longer expires', () =>
      backend.clocked(async (clock) => {
        const k = key('persist');
        await store.set(k, 'v1', 1);
        await store.set(k, 'v2');

        await clock.elapse(3600_000);
        expect(await store.get(k)).toBe('v2');
      }));

    test('when 100 increments run in parallel, then the counter is 100', async () => {
      const k = key('counter');

      const results = await Promise.all(Array.from({ length: 100 }, () => store.incr(k, 60)));

      expect(await store.get(k)).toBe('100');
      expect(new Set(results).size).toBe(100);
      expect(Math.max(...results)).toBe(100);
    });

    test('when a counter window ends, then counting starts again from 1', () =>
      backend.clocked(async (clock) => {
        const k = key('window');
        expect(await store.incr(k, 2)).toBe(1);
        await clock.elapse(1500);
        // Within the window: the count goes on, and the window is not stretched by it.
        expect(await store.incr(k, 2)).toBe(2);

        await clock.elapse(700);
        expect(await store.incr(k, 2)).toBe(1);
      }));

    test('when a non-number is incremented, then incr rejects and the value is unchanged', async () => {
      const k = key('text');
      await store.set(k, 'not-a-number');

      await expect(store.incr(k, 60)).rejects.toThrow();
      expect(await store.get(k)).toBe('not-a-number');
    });

    test('when pinged, then it answers', async () => {
      expect(await store.ping()).toBe(true);
    });
  });
}

function rateLimiterContract(backend: Backend) {
  describe(`RateLimiter contract (${backend.name})`, () => {
    const prefix = () => `rl-${randomUUID()}`;

    test('when the budget is used up, then the next call is denied with a Retry-After', async () => {
      const limiter = backend.limiter({
        keyPrefix: prefix(),
        points: 3,
        durationSeconds: 60,
        blockDurationSeconds: 300,
      });

      expect(await limiter.consume('admin@example.edu')).toEqual({ allowed: true, remaining: 2 });
      expect(await limiter.consume('admin@example.edu')).toEqual({ allowed: true, remaining: 1 });
      expect(await limiter.consume('admin@example.edu')).toEqual({ allowed: true, remaining: 0 });
      const denied = await limiter.consume('admin@example.edu');

      expect(denied.allowed).toBe(false);
      if (denied.allowed) return;
      expect(denied.retryAfterSeconds).toBeGreaterThan(60);
      expect(denied.retryAfterSeconds).toBeLessThanOrEqual(300);
      expect(await limiter.get('admin@example.edu')).toMatchObject({ blocked: true, remaining: 0 });
    });

    test('when one key is blocked, then another key keeps its own budget', async () => {
      const limiter = backend.limiter({
        keyPrefix: prefix(),
        points: 1,
        durationSeconds: 60,
        blockDurationSeconds: 60,
      });
      await limiter.consume('10.0.0.1');
      expect((await limiter.consume('10.0.0.1')).allowed).toBe(false);

      expect(await limiter.consume('10.0.0.2')).toEqual({ allowed: true, remaining: 0 });
    });

    test('when two limits use different prefixes, then they do not share counters', async () => {
      const byEmail = backend.limiter({ keyPrefix: prefix(), points: 1, durationSeconds: 60 });
      const byIp = backend.limiter({ keyPrefix: prefix(), points: 1, durationSeconds: 60 });
      await byEmail.consume('same-key');

      expect((await byIp.consume('same-key')).allowed).toBe(true);
    });

    test('when the block ends, then the key is allowed again with a full budget', () =>
      backend.clocked(async (clock) => {
        const limiter = backend.limiter({
          keyPrefix: prefix(),
          points: 1,
          durationSeconds: 1,
          blockDurationSeconds: 2,
        });
        await limiter.consume('k');
        const denied = await limiter.consume('k');
        expect(denied).toEqual({ allowed: false, retryAfterSeconds: 2 });

        // Past the window, still within the block (and denied calls do not end it).
        await clock.elapse(1200);
        expect((await limiter.consume('k')).allowed).toBe(false);

        await clock.elapse(1000);
        expect(await limiter.consume('k')).toEqual({ allowed: true, remaining: 0 });
      }));

    test('when a key is reset, then it is unblocked and its state is gone', async () => {
      const limiter = backend.limiter({
        keyPrefix: prefix(),
        points: 2,
        durationSeconds: 60,
        blockDurationSeconds: 600,
      });
      await limiter.consume('k', 2);
      expect((await limiter.consume('k')).allowed).toBe(false);

      await limiter.reset('k');

      expect(await limiter.get('k')).toBeNull();
      expect(await limiter.consume('k')).toEqual({ allowed: true, remaining: 1 });
    });

    test('when a key is read, then nothing is consumed', async () => {
      const limiter = backend.limiter({ keyPrefix: prefix(), points: 5, durationSeconds: 60 });
      expect(await limiter.get('k')).toBeNull();
      await limiter.consume('k', 2);

      const state = await limiter.get('k');
      await limiter.get('k');

      expect(state).toMatchObject({ consumed: 2, remaining: 3, blocked: false });
      expect(state?.retryAfterSeconds).toBeGreaterThan(0);
      expect(await limiter.consume('k')).toEqual({ allowed: true, remaining: 2 });
    });

    test('when many calls race for the last points, then exactly the budget is allowed', async () => {
      const limiter = backend.limiter({ keyPrefix: prefix(), points: 10, durationSeconds: 60 });

      const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.consume('invite-token')));

      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    });
  });
}

function revocationContract(backend: Backend) {
  describe(`RevocationList contract (${backend.name})`, () => {
    let store: KeyValueStore;
    const nowSeconds = () => Math.floor(Date.now() / 1000);

    beforeAll(async () => {
      store = backend.store();
      await createRevocationList(store).markFilled();
    });
    afterAll(() => store.close());

    test('when the store lost its revocations (no fill mark), then the list is refilled before it answers', async () => {
      const lost = store;
      await lost.del(REVOCATIONS_FILLED_KEY);
      const session = randomUUID();
      const refills: number[] = [];
      const list = createRevocationList(lost, {
        // As auth refills from its database: the revocations first, the mark last.
        refill: async () => {
          refills.push(Date.now());
          await list.revokeSession(session, 900);
          await list.markFilled();
        },
      });
      try {
        const checks = await Promise.all(
          Array.from({ length: 5 }, () =>
            list.isTokenRevoked({ sid: session, sub: 'a1', iat: nowSeconds() }),
          ),
        );
        expect(checks).toEqual([true, true, true, true, true]);
        expect(refills).toHaveLength(1);
      } finally {
        await createRevocationList(lost).markFilled();
      }
    });

    test('when the store lost its revocations and nobody refills it, then the check refuses (503) instead of letting the token through', async () => {
      const lost = store;
      await lost.del(REVOCATIONS_FILLED_KEY);
      const list = createRevocationList(lost, { refillWaitMs: 300 });
      try {
        await expect(
          list.isTokenRevoked({ sid: randomUUID(), sub: 'a1', iat: nowSeconds() }),
        ).rejects.toMatchObject({ code: 'revocations_unavailable', httpStatus: 503 });
        // Auth refills it meanwhile: the waiting check answers.
        const waiting = list.isTokenRevoked({ sid: randomUUID(), sub: 'a1', iat: nowSeconds() });
        await createRevocationList(lost).markFilled();
        await expect(waiting).resolves.toBe(false);
      } finally {
        await createRevocationList(lost).markFilled();
      }
    });

    test('when a token id is revoked, then only that token is revoked', async () => {
      const list = createRevocationList(store);
      const jti = randomUUID();

      await list.revoke(jti, nowSeconds() + 900);

      expect(await list.isRevoked(jti)).toBe(true);
      expect(await list.isRevoked(randomUUID())).toBe(false);
      expect(await list.isTokenRevoked({ jti, sub: 'a1', iat: nowSeconds() })).toBe(true);
    });

    test('when a revocation reaches the token expiry, then it is forgotten', () =>
      backend.clocked(async (clock) => {
        const list = createRevocationList(store);
        const jti = randomUUID();
        const expired = randomUUID();

        await list.revoke(jti, nowSeconds() + 2);
        await list.revoke(expired, nowSeconds() - 10);

        expect(await list.isRevoked(expired)).toBe(false);
        await clock.elapse(1000);
        expect(await list.isRevoked(jti)).toBe(true);
        await clock.elapse(2100);
        expect(await list.isRevoked(jti)).toBe(false);
      }));

    test('when a subject is revoked before now, then its older tokens are revoked and newer ones are not', async () => {
      const list = createRevocationList(store);
      const admin = randomUUID();
      const cutoff = nowSeconds();

      await list.revokeSubjectBefore(admin, cutoff, 900);

      expect(await list.revokedBefore(admin)).toBe(cutoff);
      expect(await list.isTokenRevoked({ jti: randomUUID(), sub: admin, iat: cutoff - 60 })).toBe(true);
      expect(await list.isTokenRevoked({ jti: randomUUID(), sub: admin, iat: cutoff })).toBe(false);
      expect(await list.isTokenRevoked({ jti: randomUUID(), sub: admin, iat: cutoff + 5 })).toBe(false);
      expect(await list.isTokenRevoked({ jti: randomUUID(), sub: admin })).toBe(true);
      expect(await list.isTokenRevoked({ jti: randomUUID(), sub: randomUUID(), iat: cutoff - 60 })).toBe(
        false,
      );
    });

    test('when an earlier cutoff arrives after a later one, then the later one stays', async () => {
      const list = createRevocationList(store);
      const admin = randomUUID();

      await list.revokeSubjectBefore(admin, 2_000_000_000, 900);
      await list.revokeSubjectBefore(admin, 1_900_000_000, 900);
      expect(await list.revokedBefore(admin)).toBe(2_000_000_000);

      await list.revokeSubjectBefore(admin, 2_000_000_100, 900);
      expect(await list.revokedBefore(admin)).toBe(2_000_000_100);
    });

    test('when the subject revocation TTL ends, then the cutoff is gone', () =>
      backend.clocked(async (clock) => {
        const list = createRevocationList(store);
        const admin = randomUUID();
        const cutoff = nowSeconds();

        await list.revokeSubjectBefore(admin, cutoff, 2);
        await clock.elapse(1500);
        expect(await list.revokedBefore(admin)).toBe(cutoff);
        await clock.elapse(700);

        expect(await list.revokedBefore(admin)).toBeNull();
      }));
  });
}

for (const backend of backends) {
  keyValueStoreContract(backend);
  rateLimiterContract(backend);
  revocationContract(backend);
}

describe('when Redis is unreachable', () => {
  // Port 1 on loopback refuses connections: a Redis that is down.
  const DEAD_URL = 'redis://127.0.0.1:1';

  function capturingLogger() {
    const lines: Array<{ level: string; msg: string; err?: { message: string } }> = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { level: string; msg: string; err?: { message: string } });
        done();
      },
    });
    return { lines, logger: createLogger({ name: 'cache-test', level: 'info', destination }) };
  }

  test('when a store call is made, then it rejects, the outage is logged once, and the process lives on', async () => {
    const { lines, logger: captured } = capturingLogger();
    const store = createRedisStore({
      url: DEAD_URL,
      keyPrefix: filePrefix,
      logger: captured,
      outageAfterMs: 300,
    });
    try {
      await expect(store.get('anything')).rejects.toMatchObject({
        httpStatus: 503,
        code: 'cache_unavailable',
      });
      await expect(store.incr('anything', 10)).rejects.toMatchObject({
        httpStatus: 503,
        code: 'cache_unavailable',
      });
      await expect(store.set('anything', 'v')).rejects.toMatchObject({ httpStatus: 503 });
      expect(await store.ping()).toBe(false);

      // The first failure at warning at once, the outage at error once it has lasted outageAfterMs.
      expect(lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
        expect.stringMatching(/redis connection failed/),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
        expect.stringMatching(/redis unreachable/),
      ]);
    } finally {
      await store.close();
    }
  });

  test('when the process is too busy to read the first replies of a connection in time, then nothing is logged at error and it connects', async () => {
    // A service that keeps its event loop busy at start (fonts, keys) while its client's first commands (HELLO,
    // INFO) are in flight: their timeouts fire before the replies Redis sent are read.
    const { lines, logger: captured } = capturingLogger();
    const client = createRedis({
      url: REDIS_URL,
      keyPrefix: filePrefix,
      logger: captured,
      commandTimeoutMs: 250,
    });
    client.once('connect', () => setImmediate(() => holdTheEventLoop(500)));
    try {
      await new Promise((resolve) => client.once('ready', resolve));
      expect(await client.ping()).toBe('PONG');
      expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
      expect(lines.filter((l) => l.level === 'warn').map((l) => l.err)).toEqual([
        expect.objectContaining({ message: 'Command timed out' }),
      ]);
    } finally {
      await closeRedis(client);
    }
  });

  test('when a Redis rate limiter is used, then it keeps limiting in this process', async () => {
    const { lines, logger: captured } = capturingLogger();
    const client = createRedis({ url: DEAD_URL, keyPrefix: filePrefix, logger });
    const limiter = createRateLimiter({
      store: 'redis',
      redis: client,
      keyPrefix: 'login',
      points: 2,
      durationSeconds: 60,
      blockDurationSeconds: 60,
      logger: captured,
    });
    try {
      expect((await limiter.consume('admin@example.edu')).allowed).toBe(true);
      expect((await limiter.consume('admin@example.edu')).allowed).toBe(true);
      expect((await limiter.consume('admin@example.edu')).allowed).toBe(false);
      expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    } finally {
      await closeRedis(client);
    }
  });
});
