/** The embedded development servers, loaded only when a service runs without the URL of a real one. */
export type DevServers = typeof import('@readiness/dev-servers');

/**
 * Loads `@readiness/dev-servers` for the embedded default standing in for `setting`. A production image does
 * not install that package, so there the missing URL is named instead: the operator sets it.
 */
export async function loadDevServers(setting: string): Promise<DevServers> {
  try {
    return await import('@readiness/dev-servers');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new Error(
      `${setting} is not set and the embedded development servers (@readiness/dev-servers) are not installed: ` +
        `set ${setting} to the server to use`,
      { cause: err },
    );
  }
}
