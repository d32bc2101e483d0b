import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from './ports';

/** Someone the test provider knows; `email_verified` false stands for an address the institution never checked. */
export interface TestPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestOidcProviderOptions {
  clientId: string;
  /** Without one the client is public (PKCE only). */
  clientSecret?: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  people: TestPerson[];
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: a loopback issuer, which Readiness accepts without HTTPS. */
  issuer: string;
  stop(): Promise<void>;
}

const SCRIPT = path.resolve(__dirname, '../oidc/test-provider.mjs');

/**
 * Starts a real OpenID Provider (oidc-provider) in its own process, with one client and the people it knows. Its
 * sign-in page asks for an "Institution e-mail" and a "Continue" press; nothing else (no password, no consent).
 */
export async function startTestOidcProvider(options: TestOidcProviderOptions): Promise<TestOidcProvider> {
  const port = await freePort();
  const config = {
    port,
    client: {
      client_id: options.clientId,
      ...(options.clientSecret ? { client_secret: options.clientSecret } : {}),
      redirect_uris: options.redirectUris,
      post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
    },
    people: options.people,
  };
  const child = spawn(process.execPath, [SCRIPT], {
    env: { ...process.env, TEST_OIDC_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the test provider did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /^ready (\S+)$/m.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the test provider exited (${code}):\n${output}`));
    });
  });
  return { issuer, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
