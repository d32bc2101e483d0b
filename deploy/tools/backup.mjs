// Backs up and restores what Readiness keeps: every service's PostgreSQL database and the object store's bucket
// (certificates, reports, answer files). docs/operations.md, "Back up and restore", is the procedure; the restore
// rehearsal (tests/operations) runs exactly this script.
//
//   node deploy/tools/backup.mjs backup  <folder>   writes <folder>/databases/<service>.dump, <folder>/objects/…
//                                                   and <folder>/manifest.json (sizes and SHA-256 of every file)
//   node deploy/tools/backup.mjs restore <folder>   checks every digest first, then restores into EMPTY databases
//                                                   and the bucket; refuses (exit 1, nothing changed) otherwise
//
// Environment: DATABASE_URLS, one `service=postgres://…` per service, separated by spaces or new lines; and the
// services' own S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET (default readiness), S3_REGION. PostgreSQL's
// pg_dump and pg_restore (the server's major version or newer) must be on the PATH.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { Client as Minio } from 'minio';
import pg from 'pg';

const run = promisify(execFile);

function fail(message) {
  console.error(`backup: ${message}`);
  process.exit(1);
}

function databasesFromEnv() {
  const entries = (process.env.DATABASE_URLS ?? '').split(/\s+/).filter(Boolean);
  if (entries.length === 0) fail('DATABASE_URLS names no database (service=postgres://… each)');
  const databases = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const name = entry.slice(0, at);
    if (at < 1 || !/^[a-z][a-z0-9-]{0,30}$/.test(name)) fail(`not service=url: ${entry.split('=')[0]}`);
    databases[name] = entry.slice(at + 1);
  }
  return databases;
}

function objectStore() {
  const endpoint = process.env.S3_ENDPOINT;
  if (!endpoint) fail('S3_ENDPOINT is not set');
  const url = new URL(endpoint);
  const client = new Minio({
    endPoint: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    useSSL: url.protocol === 'https:',
    accessKey: process.env.S3_ACCESS_KEY ?? '',
    secretKey: process.env.S3_SECRET_KEY ?? '',
    region: process.env.S3_REGION ?? 'us-east-1',
    pathStyle: true,
  });
  return { client, bucket: process.env.S3_BUCKET || 'readiness' };
}

async function digestOf(file) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { bytes: (await stat(file)).size, sha256: hash.digest('hex') };
}

/** An object key as a path inside `objects/`; a key that would leave it (`..`, absolute) is refused. */
function objectPath(folder, key) {
  const parts = key.split('/');
  if (!key || key.startsWith('/') || parts.some((p) => p === '..' || p === '.' || p === ''))
    fail(`refusing object key ${JSON.stringify(key)}`);
  return path.join(folder, 'objects', ...parts);
}

async function backup(folder) {
  const databases = databasesFromEnv();
  const { client, bucket } = objectStore();
  if (existsSync(path.join(folder, 'manifest.json'))) fail(`${folder} already holds a backup`);
  await mkdir(path.join(folder, 'databases'), { recursive: true });
  const manifest = { format: 1, createdAt: new Date().toISOString(), bucket, databases: {}, objects: [] };
  // Databases first, then objects: every object a dumped row names was stored before its row committed, so the
  // objects copied after the dumps include it (objects written in between are kept too, and harmless).
  for (const [service, url] of Object.entries(databases)) {
    const file = path.join(folder, 'databases', `${service}.dump`);
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
      `--dbname=${url}`,
    ]);
    manifest.databases[service] = { file: `databases/${service}.dump`, ...(await digestOf(file)) };
  }
  const keys = [];
  for await (const item of client.listObjectsV2(bucket, '', true)) if (item.name) keys.push(item.name);
  for (const key of keys.sort()) {
    const file = objectPath(folder, key);
    await mkdir(path.dirname(file), { recursive: true });
    await pipeline(await client.getObject(bucket, key), createWriteStream(file));
    manifest.objects.push({ key, ...(await digestOf(file)) });
  }
  await writeFile(path.join(folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(
    `backup: ${Object.keys(manifest.databases).length} databases and ${manifest.objects.length} objects in ${folder}\n`,
  );
}

async function tablesIn(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
    return res.rows[0].n;
  } finally {
    await client.end();
  }
}

async function restore(folder) {
  const databases = databasesFromEnv();
  const { client, bucket } = objectStore();
  let manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8'));
  } catch {
    fail(`${folder}/manifest.json is missing or unreadable`);
  }
  // Everything is checked before anything is written: a damaged or incomplete backup changes nothing.
  for (const service of Object.keys(manifest.databases))
    if (!databases[service])
      fail(`the backup holds ${service}'s database and DATABASE_URLS has no ${service}`);
  const files = [
    ...Object.values(manifest.databases).map((d) => ({ ...d, file: path.join(folder, d.file) })),
    ...manifest.objects.map((o) => ({ ...o, file: objectPath(folder, o.key) })),
  ];
  for (const expected of files) {
    const actual = await digestOf(expected.file).catch(() => undefined);
    if (actual?.sha256 !== expected.sha256)
      fail(`${path.relative(folder, expected.file)} does not match the manifest`);
  }
  for (const service of Object.keys(manifest.databases)) {
    const tables = await tablesIn(databases[service]);
    if (tables > 0) fail(`${service}'s database is not empty (${tables} tables): restore into a new one`);
  }

  for (const [service, dump] of Object.entries(manifest.databases)) {
    await run('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${databases[service]}`,
      path.join(folder, dump.file),
    ]);
  }
  if (!(await client.bucketExists(bucket)))
    await client.makeBucket(bucket, process.env.S3_REGION ?? 'us-east-1');
  for (const object of manifest.objects) {
    await client.fPutObject(bucket, object.key, objectPath(folder, object.key));
  }
  process.stdout.write(
    `restore: ${Object.keys(manifest.databases).length} databases and ${manifest.objects.length} objects from ${folder}\n`,
  );
}

const [command, folder] = process.argv.slice(2);
if (!folder || !['backup', 'restore'].includes(command)) fail('usage: backup.mjs backup|restore <folder>');
await (command === 'backup' ? backup(path.resolve(folder)) : restore(path.resolve(folder))).catch((err) =>
  fail(err.stderr?.toString().trim() || err.message),
);
