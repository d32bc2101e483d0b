import type { RequestListener, Server } from 'node:http';
import {
  boundOnDemand,
  consumers,
  type EventName,
  type EventPayload,
  type QueueEvents,
  type QueueName,
} from '@readiness/contracts';
import type { Express, RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import type { z } from 'zod';
import type { BusMessage, EventBus, Subscription } from '../bus';
import type { KeyValueStore, Redis } from '../cache';
import type { Database } from '../db';
import type { HttpApp } from '../http';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import type { MessageKey, OnceEffect } from '../outbox';
import type { OpenApiDocument } from '../openapi';
import type { ObjectStore } from '../storage';
import type { PeriodicJob } from './jobs';

/** The adapters a service asks the runtime for, besides its database (declared by `migrations`). */
export interface ServiceUses {
  /** Redis (REDIS_URL, prefix `readiness:`) or the process's shared key-value store. */
  kv?: boolean;
  /** A mailer on SMTP_URL, or on an in-process catcher when unset. */
  mailer?: boolean;
  /**
   * Object storage on S3_ENDPOINT (bucket S3_BUCKET, spread `objectStorageEnv` into the config), or the launcher's
   * embedded S3, or one of the service's own under DATA_DIR.
   */
  storage?: boolean;
}

/** What the runtime hands a service's `setup`: its parsed config and the adapters it declared. */
export interface ServiceContext<C> {
  name: string;
  config: C;
  logger: Logger;
  registry: Registry;
  /** Present when the service declares `migrations`. */
  database: Database;
  /** Publishes through the outbox relay; delivers the service's subscriptions. */
  bus: EventBus;
  /** Redis when REDIS_URL is set (`uses.kv`). */
  redis?: Redis;
  /** Redis-backed, or the store the process shares (all-in-one); absent otherwise (`uses.kv`). */
  kv?: KeyValueStore;
  mailer: Mailer;
  storage: ObjectStore;
  /**
   * The runtime's admin check (the one it mounts on `/api/admin`), for a service whose admin routes live under
   * another prefix: `app.use('/api/assessment', ctx.adminGuard)` after the prefix's public routes.
   */
  adminGuard: RequestHandler;
  /** `handleOnce` on this service's database. */
  handleOnce<T>(
    consumer: string,
    message: string | MessageKey,
    effect: OnceEffect<T>,
  ): Promise<{ duplicate: boolean; result?: T }>;
}

/** Envelope fields of a delivered event, next to its decoded payload. */
export interface EventMeta {
  id: string;
  name: string;
  occurredAt: Date;
  correlationId?: string;
  /** 1 on the first delivery, incremented by every retry the bus schedules. */
  attempt: number;
}

/** A handler of one event, typed by the contract in proto/: the payload is decoded once, by the bus. */
export interface EventSubscription {
  /** The bus subscription the runtime registers. */
  readonly subscription: Subscription;
}

interface HandlerOptions {
  maxAttempts?: number;
  /** How long a `NotYetError` from `handle` keeps being retried (beyond `maxAttempts`); the bus's default otherwise. */
  waitHorizonMs?: number;
  /**
   * Background work (certificates, mails, the dashboard's figures): paused while students wait in the waiting room,
   * delivered after (docs/waiting-room.md). Never for what a student waits on (scoring, their result's copy).
   */
  yieldsToStudents?: boolean;
}

/**
 * Subscribes a handler queue of the consumer table (proto/src/consumers.ts), by its name: the events bound to it
 * come from the table, and `handle` receives the payload decoded with its protobuf contract (a queue of several
 * versions of one event tells them apart by the payload's `$typeName`).
 */
export function on<Q extends QueueName>(
  queue: Q,
  handler: HandlerOptions & { handle(payload: EventPayload<QueueEvents<Q>>, meta: EventMeta): Promise<void> },
): EventSubscription;
/**
 * Subscribes a queue outside the consumer table (a test's service) to one event by name, or to the versions of
 * one event by their names. `queue` is `<service>.<handler>`, one queue per handler.
 */
export function on<N extends EventName>(
  event: N | readonly N[],
  handler: HandlerOptions & {
    queue: string;
    handle(payload: EventPayload<N>, meta: EventMeta): Promise<void>;
  },
): EventSubscription;
export function on(
  subject: string | readonly string[],
  handler: HandlerOptions & {
    queue?: string;
    handle(payload: EventPayload<EventName>, meta: EventMeta): Promise<void>;
  },
): EventSubscription {
  const listed = handler.queue === undefined;
  const queue = listed ? (subject as QueueName) : handler.queue!;
  const events = listed ? consumers[queue as QueueName] : typeof subject === 'string' ? [subject] : subject;
  return {
    subscription: {
      queue,
      events: [...events],
      maxAttempts: handler.maxAttempts,
      waitHorizonMs: handler.waitHorizonMs,
      yieldsToStudents: handler.yieldsToStudents,
      onDemand: listed && boundOnDemand.has(queue as QueueName),
      handle: (msg: BusMessage, ctx) =>
        handler.handle(ctx.payload as EventPayload<EventName>, {
          id: msg.id,
          name: msg.name,
          occurredAt: msg.occurredAt,
          correlationId: msg.correlationId,
          attempt: ctx.attempt,
        }),
    },
  };
}

/** What `setup` builds: the service's entry points and what it lends to in-process neighbours. */
export interface ServiceParts<E> {
  /** Routes mounted on the kit's HTTP app (health, readiness, metrics, JSON bodies, errors included). */
  routes?: (app: Express) => void;
  /** An HTTP app the service builds itself, instead of `routes` (the gateway streams bodies). */
  app?: HttpApp;
  /** What the public server calls for each request instead of `app.app` (the gateway answers its hot path first). */
  requestListener?: RequestListener;
  subscriptions?: readonly EventSubscription[];
  /** Periodic jobs (`every`), started once the server listens and stopped before the relay and the adapters. */
  jobs?: readonly PeriodicJob[];
  /** Extra readiness beyond the adapters the runtime checks (database, bus). */
  readiness?: () => Promise<boolean>;
  /** Called once the server listens (server timeouts). */
  listening?: (server: Server) => void;
  /**
   * Called when the service starts draining, before the server waits for its requests: ends what never ends by
   * itself (event streams), so the server closes within the grace instead of at its end.
   */
  draining?: () => void;
  /** Releases what `setup` opened; runs after the server closed and before the adapters close. */
  stop?: () => Promise<void>;
  /** Handed to the caller (the all-in-one launcher, tests): an in-process verifier, a seeded account. */
  exports?: E;
}

/**
 * A service, declared: its config schema, its migrations, the events it publishes and the adapters it uses,
 * its OpenAPI document, and `setup`, which builds the domain and returns its routes and subscriptions. The
 * runtime (`startService`) does all the wiring; `O` is what an in-process caller may inject (tests, launcher).
 */
export interface ServiceModule<S extends z.ZodType, E = undefined, O = undefined> {
  name: string;
  /** Every key is the environment variable it reads; extend `serviceEnv` or `dataServiceEnv`. */
  config: S;
  /**
   * The service's `.sql` folder, beside its module (`path.join(__dirname, 'data-access/migrations')`): declaring it
   * gives the service a database, migrated on start after the kit's tables, and `node dist/main.js migrate`.
   */
  migrations?: string;
  /** Event names the service writes to its outbox; declaring any starts an outbox relay. */
  publishes?: readonly EventName[];
  /** Whether the service talks to the bus at all (subscribers and publishers do). */
  bus?: boolean;
  uses?: ServiceUses;
  /**
   * Whether the runtime checks admin tokens on the service's `/api/admin` routes with the kit's `adminGuard`
   * (signature, issuer, audience, revocation, role, pending password change), so a request that bypasses the
   * gateway meets the same rules; its config spreads `adminAuthEnv`. True by default; auth, which checks tokens
   * against its own admin rows, turns it off.
   */
  adminGuard?: boolean;
  /** The service's API description (`describeService`), served at /openapi.json and merged by the gateway. */
  openapi?: OpenApiDocument;
  setup(ctx: ServiceContext<z.infer<S>>, options: O): Promise<ServiceParts<E>> | ServiceParts<E>;
}

/** Declares a service module (an identity function that checks the shape and infers the types). */
export function defineService<S extends z.ZodType, E = undefined, O = undefined>(
  module: ServiceModule<S, E, O>,
): ServiceModule<S, E, O> {
  return module;
}
