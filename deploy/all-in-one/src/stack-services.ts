import { topology, upstreamNames, type ServiceName } from '@readiness/contracts';

/** The services of the local stack, in start order (the system's topology table), with their ports on localhost. */
export type StackServiceName = ServiceName;

export interface StackService {
  name: StackServiceName;
  port: number;
  database: boolean;
  /** It reads or writes the product's bucket (the stack's one S3 server). */
  objectStorage: boolean;
  env(urls: Record<string, string>): NodeJS.ProcessEnv;
}

/**
 * Every upstream checks admin tokens with auth's key set (AUTH_URL); the gateway reaches each upstream at its
 * `<NAME>_URL` and serves the built web app. The services that use object storage share the stack's one S3 server.
 */
const envOf = (name: ServiceName, urls: Record<string, string>): NodeJS.ProcessEnv => {
  if (name === 'auth') return {};
  if (name !== 'gateway') return { AUTH_URL: urls.auth };
  return {
    ...Object.fromEntries(upstreamNames.map((upstream) => [`${upstream.toUpperCase()}_URL`, urls[upstream]])),
    WEB_DIST_DIR: 'web/dist',
  };
};

export const stackServices: StackService[] = topology.map((s) => ({
  name: s.name,
  port: s.stackPort,
  database: s.uses.postgres,
  objectStorage: s.uses.s3,
  env: (urls) => envOf(s.name, urls),
}));
