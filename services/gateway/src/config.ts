import { upstreamNames } from '@readiness/contracts';
import { env, jwtEnv, serviceEnv } from '@readiness/kit/config';
import { z } from 'zod';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const origins = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
  );

/** Where each service of the topology table behind the gateway answers: its `<NAME>_URL`. */
const upstreamUrls = Object.fromEntries(
  upstreamNames.map((name) => [`${name.toUpperCase()}_URL`, env.optionalUrl()]),
) as {
  [N in (typeof upstreamNames)[number] as `${Uppercase<N>}_URL`]: ReturnType<typeof env.optionalUrl>;
};

export const configSchema = z
  .object({
    ...serviceEnv,
    ...jwtEnv,
    ...upstreamUrls,
    /** Defaults to `${AUTH_URL}/.well-known/jwks.json`. */
    AUTH_JWKS_URL: env.optionalUrl(),
    REDIS_URL: env.optionalUrl(),
    /** Comma-separated origins allowed to call the API from another origin; same-origin needs none. */
    CORS_ORIGINS: origins,
    /**
     * Whether anyone may read the API document (`/api/docs/openapi.json`); false: signed-in admins only (the docs
     * page sends the admin token of the portal signed in in the same browser).
     */
    API_DOCS_PUBLIC: env.bool(true),
    /** Folder of the built web app (`web/dist`); without it the gateway serves only the API. */
    WEB_DIST_DIR: z.string().min(1).optional(),
    /** Idle time allowed to an upstream before the caller gets a 504. */
    UPSTREAM_TIMEOUT_MS: positiveInt(30_000),
    /**
     * Arriving students' calls (opening the link, loading the assessment, Start) in flight from this gateway to the
     * student service at once; more wait here in order. The calls of students already taking the test never wait.
     */
    STUDENT_ARRIVALS_IN_FLIGHT: positiveInt(64),
    /**
     * Waiting pages one gateway tells the line through its event stream (`GET /api/waiting-room/events`); past it a
     * page is answered 503 and polls `GET /api/waiting-room` instead.
     */
    LINE_STREAMS_MAX: positiveInt(20_000),
    /**
     * Of those, the pages one client address may hold open at once (a school's network is one address for all its
     * students); past it a page of that address is answered 429 and polls. One address's flood cannot take the
     * gateway's streams from everyone else.
     */
    LINE_STREAMS_PER_ADDRESS: positiveInt(1_000),
    /**
     * Connections this gateway keeps to one service at once. Enough for every call in flight at the peak: a submit
     * holds one while it waits for its result, and a call short of a connection waits here, unseen by the service.
     */
    UPSTREAM_MAX_SOCKETS: positiveInt(4096),
    /** Multipart uploads stream a larger body, so they get longer. */
    UPLOAD_TIMEOUT_MS: positiveInt(120_000),
    JSON_BODY_LIMIT_BYTES: positiveInt(1024 * 1024),
    UPLOAD_BODY_LIMIT_BYTES: positiveInt(25 * 1024 * 1024),
    /**
     * The LMS origins that may show the student's assessment page (`/assessment/…`) in their iframe (an LTI launch),
     * separated by spaces or commas: CSP sources such as `https://moodle.example.edu` or `https://*.instructure.com`.
     * Empty: no site may frame any page of the product.
     */
    LTI_FRAME_ANCESTORS: z
      .string()
      .default('')
      .transform((value) => value.split(/[\s,]+/).filter(Boolean))
      .pipe(
        z.array(
          z
            .string()
            .regex(
              /^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:(\d{1,5}|\*))?$/,
              'each must be an origin (scheme and host, a port or :* at most, *. before the host at most)',
            ),
        ),
      ),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
    /** Requests per IP per window for the whole API. */
    RATE_LIMIT_API: positiveInt(600),
    /** Sign-in attempts per IP per window (password guessing). */
    RATE_LIMIT_LOGIN: positiveInt(20),
    /**
     * Student-link look-ups (GET) per IP per window (invitation token guessing). Generous: a classroom of a
     * hundred behind one NAT address loads its pages from that one address.
     */
    RATE_LIMIT_STUDENT: positiveInt(1200),
    /** Student-link look-ups per invitation token per window (one student, however many tabs). */
    RATE_LIMIT_STUDENT_TOKEN: positiveInt(120),
    /** Student-flow writes (start, autosave, files, submit) per IP per window: a whole classroom autosaving. */
    RATE_LIMIT_STUDENT_WRITES: positiveInt(6000),
    /** Student-flow writes per invitation token per window (an autosave every few seconds, and retries). */
    RATE_LIMIT_STUDENT_TOKEN_WRITES: positiveInt(300),
  })
  .transform((c) => ({
    ...c,
    AUTH_JWKS_URL:
      c.AUTH_JWKS_URL ?? (c.AUTH_URL ? `${c.AUTH_URL.replace(/\/+$/, '')}/.well-known/jwks.json` : undefined),
  }));

export type GatewayConfig = z.infer<typeof configSchema>;
