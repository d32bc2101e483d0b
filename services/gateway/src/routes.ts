import { topology, upstreamNames } from '@readiness/contracts';

/** The services behind the gateway: the system's topology table, less the gateway itself. */
export const UPSTREAMS = upstreamNames;
export type UpstreamName = (typeof upstreamNames)[number];

/**
 * `login`: sign-in attempts per IP. `student`: invitation-link look-ups, per IP and per token. `studentWrite`: the
 * student flow's writes (start, autosave, files, submit), per IP and per token, counted apart from look-ups so a
 * look-up burst never starves an autosave. Student routes are not counted against the API-wide per-IP limit: a
 * classroom behind one NAT address shares that address.
 */
export type RateLimitName = 'login' | 'student' | 'studentWrite';

export interface RouteRule {
  /** Matched against the path without the query string. */
  path: RegExp;
  /** Only these methods match; all methods when absent. */
  methods?: readonly string[];
  upstream: UpstreamName;
  /** `admin`: a valid admin JWT is required before the request is proxied. */
  access: 'admin' | 'public';
  /** A limit of its own: on top of the API-wide one, or (student routes) instead of it. */
  rateLimit?: RateLimitName;
  /** Multipart bodies on this route get the upload size cap and timeout. */
  uploads?: boolean;
  /** Server-sent events: a connection of its own to the upstream, idle for up to a minute between messages. */
  stream?: boolean;
  /**
   * The same answer for everyone (public GETs only): the gateway asks the upstream at most once in this many
   * milliseconds and answers every caller from memory meanwhile (`shared-answers.ts`).
   */
  sharedForMs?: number;
  /**
   * An event stream the same for everyone (public GETs only): the gateway follows the upstream's stream once and tells
   * every client its newest event every few seconds (`shared-streams.ts`).
   */
  sharedStream?: boolean;
}

const under = (prefix: string) => new RegExp(`^${prefix.replace(/[/.]/g, '\\$&')}(?:/.*)?$`);

/** Every path under the `/api/admin` prefixes a row of the topology table owns (`adminPaths`), to its service. */
const ownedAdminPaths: readonly RouteRule[] = topology.flatMap(({ name, adminPaths = [] }) =>
  name === 'gateway'
    ? []
    : adminPaths.map((prefix) => ({ path: under(prefix), upstream: name, access: 'admin' as const })),
);

/**
 * Which service owns which path. First match wins, so narrower rules come first; the `adminPaths` of the topology
 * table's rows come last. A service whose paths need more than the admin check under a prefix of its own (public
 * paths, a limit, uploads, a stream, a narrower rule) adds its rows here; its URL comes from its row.
 */
export const ROUTES: readonly RouteRule[] = [
  // Every step of sign-in (password, the second factor, a passkey's challenge and answer) meets the sign-in limit.
  {
    path: /^\/api\/auth\/login(?:\/mfa(?:\/passkey-options)?|\/passkey(?:\/options)?)?$/,
    upstream: 'auth',
    access: 'public',
    rateLimit: 'login',
  },
  { path: /^\/api\/auth\/(?:me|logout|refresh|change-password)$/, upstream: 'auth', access: 'admin' },
  { path: /^\/api\/auth\/sessions(?:\/[^/]+)?$/, upstream: 'auth', access: 'admin' },
  { path: under('/api/auth/mfa'), upstream: 'auth', access: 'admin' },
  // A signed-in admin proving it is them before a factor changes: a guess at the password meets the sign-in limit.
  {
    path: /^\/api\/auth\/reauthenticate(?:\/passkey-options)?$/,
    upstream: 'auth',
    access: 'admin',
    rateLimit: 'login',
  },
  { path: under('/api/auth'), upstream: 'auth', access: 'public' },
  { path: /^\/api\/admin\/dashboard$/, upstream: 'results', access: 'admin' },
  { path: /^\/api\/admin\/results\/[^/]+\/(?:pdf|certificate)$/, upstream: 'report', access: 'admin' },
  { path: under('/api/admin/results'), upstream: 'results', access: 'admin' },
  { path: under('/api/admin/students'), upstream: 'student', access: 'admin', uploads: true },
  // An LMS's launch: its login initiation and form post come from the learner's browser, its key fetch from the LMS.
  { path: under('/api/lti'), upstream: 'integrations', access: 'public' },
  // A student's page following its attempt (an administrator's extension or end): a reconnect meets the look-up limit.
  {
    path: /^\/api\/student\/[^/]+\/events$/,
    methods: ['GET'],
    upstream: 'student',
    access: 'public',
    rateLimit: 'student',
    stream: true,
  },
  // The waiting room's line, which every waiting page follows: one upstream call a second, whoever asks, and no
  // per-address limit (a school behind one address waits together).
  // The same line as an event stream: the gateway follows the upstream's once and tells each waiting page every 5 s.
  {
    path: /^\/api\/waiting-room\/events$/,
    methods: ['GET'],
    upstream: 'student',
    access: 'public',
    sharedStream: true,
  },
  {
    path: /^\/api\/waiting-room$/,
    methods: ['GET', 'HEAD'],
    upstream: 'student',
    access: 'public',
    sharedForMs: 1_000,
  },
  {
    path: /^\/api\/student\/[^/]+(?:\/(?:assessment|results))?$/,
    methods: ['GET', 'HEAD'],
    upstream: 'student',
    access: 'public',
    rateLimit: 'student',
  },
  {
    path: under('/api/student'),
    upstream: 'student',
    access: 'public',
    uploads: true,
    rateLimit: 'studentWrite',
  },
  // Public verification of certificate codes and signed certificate links: guessing codes meets the student limit.
  {
    path: /^\/api\/certificates\/[^/]+(?:\/pdf)?$/,
    methods: ['GET', 'HEAD'],
    upstream: 'report',
    access: 'public',
    rateLimit: 'student',
  },
  // Open Badges credentials: a certificate's VC-JWT, the check of a presented one, the keys that check them.
  {
    path: /^\/api\/verify\/(?:[^/]+\/credential|jwks)$/,
    methods: ['GET', 'HEAD'],
    upstream: 'report',
    access: 'public',
    rateLimit: 'student',
  },
  {
    path: /^\/api\/verify\/credential$/,
    methods: ['POST'],
    upstream: 'report',
    access: 'public',
    rateLimit: 'student',
  },
  {
    path: /^\/api\/assessment\/files\/.+$/,
    methods: ['GET', 'HEAD'],
    upstream: 'assessment',
    access: 'public',
  },
  { path: under('/api/assessment'), upstream: 'assessment', access: 'admin', uploads: true },
  { path: /^\/\.well-known\/jwks\.json$/, methods: ['GET', 'HEAD'], upstream: 'auth', access: 'public' },
  ...ownedAdminPaths,
];

export function matchRoute(
  method: string,
  path: string,
  routes: readonly RouteRule[] = ROUTES,
): RouteRule | undefined {
  return routes.find((r) => r.path.test(path) && (!r.methods || r.methods.includes(method)));
}

/** Paths that need a valid admin JWT. Everything under /api/admin does, whatever service owns it. */
export function requiresAdmin(path: string, rule: RouteRule | undefined): boolean {
  return rule?.access === 'admin' || path === '/api/admin' || path.startsWith('/api/admin/');
}

/**
 * The path as the services' Express routers read it, for matching only: they match case-insensitively and take
 * a trailing slash as optional, so `/api/auth/ME/` reaches the handler of `/api/auth/me` and must meet its rule.
 */
export function routingKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/** A `.` or `..` segment (`/a/./b`, `/a/../b`, `/..`). */
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;
/** A percent-encoded dot, slash or backslash, in any case. */
const ENCODED_SEPARATOR = /%(?:2e|2f|5c)/i;
/** Decoding rounds looked through (`%252e` is `%2e` after one); deeper nesting is refused outright. */
const MAX_DECODING_ROUNDS = 3;

/**
 * True for a path that something between here and the service could read as another path: dot segments,
 * encoded dots, slashes or backslashes (also double-encoded), backslashes, malformed percent-encoding, or a
 * target that is not an absolute path. Such paths are refused before any route is matched, so the path a rule
 * matched is the path the service routes.
 */
export function isUnsafePath(path: string): boolean {
  if (path[0] !== '/') return true;
  let current = path;
  for (let round = 0; round < MAX_DECODING_ROUNDS; round += 1) {
    if (current.includes('\\') || DOT_SEGMENT.test(current) || ENCODED_SEPARATOR.test(current)) return true;
    if (!current.includes('%')) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return true;
    }
    if (decoded === current) return false;
    current = decoded;
  }
  return true;
}

/** The invitation token of a student route (`/api/student/{token}/…`), for the per-token limits. */
export function studentToken(path: string): string | undefined {
  return /^\/api\/student\/([^/]+)/.exec(path)?.[1];
}
