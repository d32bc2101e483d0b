/**
 * The embedded S3 server as a process of its own: `node embedded-s3-process.js <directory> [port]` prints one
 * line of JSON with its connection (`{"endpoint":…,"accessKey":…,"secretKey":…}`) once it listens, and stops on
 * SIGTERM or SIGINT. The local stack runs its services' shared bucket this way, so a benchmark can count its CPU
 * apart from the processes that call it, as it would count a MinIO.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startEmbeddedS3, type EmbeddedS3 } from './embedded-s3';

export interface EmbeddedS3Process extends Omit<EmbeddedS3, 'close'> {
  child: ChildProcess;
  close(): Promise<void>;
}

/** Starts the server in a child process; resolves once it listens. */
export async function spawnEmbeddedS3(options: {
  directory: string;
  port?: number;
}): Promise<EmbeddedS3Process> {
  // The built file, whether this module runs from src (tests) or from dist.
  const script = path.resolve(__dirname, '../dist/embedded-s3-process.js');
  const child = spawn(process.execPath, [script, options.directory, String(options.port ?? 0)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code, signal) =>
      reject(new Error(`embedded S3 exited (${code ?? signal}) before it listened`)),
    );
  });
  const connection = JSON.parse(line) as Pick<EmbeddedS3, 'endpoint' | 'accessKey' | 'secretKey' | 'port'>;
  return {
    ...connection,
    env: {
      S3_ENDPOINT: connection.endpoint,
      S3_ACCESS_KEY: connection.accessKey,
      S3_SECRET_KEY: connection.secretKey,
    },
    child,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main(directory: string, port: number): Promise<void> {
  const s3 = await startEmbeddedS3({ directory, port });
  const stop = () => void s3.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(
    `${JSON.stringify({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, port: s3.port })}\n`,
  );
}

if (require.main === module) {
  const [directory, port] = process.argv.slice(2);
  if (!directory) {
    process.stderr.write('usage: embedded-s3-process <directory> [port]\n');
    process.exit(2);
  }
  main(directory, Number(port ?? 0)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
