#!/usr/bin/env node
// Builds every service's image from deploy/Dockerfile with podman (`make images`), from the host's build: the
// compiled `dist/` folders and `web/dist` that `make build` made (the Makefile's `images` target runs it first).
// The images compile nothing; the script stops, saying to run `make build`, when that output is missing. The
// runtime stages are built first and tagged (IMAGE_PREFIX + runtime-plain, runtime-chromium): one layer of
// production modules under every image, Chromium on it for the report service.
//
//   node deploy/tools/images.mjs [service ...]   build the images (every service when none is named)
//   node deploy/tools/images.mjs --print         the image names and podman settings as JSON, building nothing
//
// The base is NODE_IMAGE when set; else the public node:22-bookworm-slim when a registry answers; else one made on
// this machine: Debian bookworm from debootstrap (minbase), with Node 22 and npm 10 from the npm registry, the
// machine's CA bundle for HTTPS inside the build (NODE_EXTRA_CA_CERTS, in this local base only) and the `node`
// user (1000) of the public image. podman runs with runc and an open-files limit at the hard limit, written to a
// containers.conf of its own (CONTAINERS_CONF), so the machine's settings are left alone.
//
// Environment: IMAGE_PREFIX (localhost/readiness-), IMAGE_TAG (dev), NODE_IMAGE, IMAGES_CACHE_DIR
// (/var/tmp/readiness-images: the debootstrap tree), DEBIAN_MIRROR (http://deb.debian.org/debian).
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const prefix = process.env.IMAGE_PREFIX ?? 'localhost/readiness-';
const tag = process.env.IMAGE_TAG ?? 'dev';
const cacheDir = process.env.IMAGES_CACHE_DIR ?? '/var/tmp/readiness-images';
const mirror = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const PUBLIC_BASE = 'docker.io/library/node:22-bookworm-slim';
const LOCAL_DEBIAN = 'localhost/readiness-debian:bookworm';
const LOCAL_BASE = 'localhost/readiness-node:22-bookworm';
/** Services whose runtime needs Chromium (PDFs). */
const CHROMIUM = new Set(['report']);

const services = readdirSync(path.join(root, 'services'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(root, 'services', d.name, 'package.json')))
  .map((d) => d.name)
  .sort();

const log = (message) => process.stderr.write(`images: ${message}\n`);

function sh(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
  return result;
}

function have(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * podman's settings for this project: runc where installed (crun fails on hybrid cgroups), and explicit limits
 * (podman's defaults ask for more open files and processes than this machine's hard limits allow).
 */
function containersConf() {
  mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, 'containers.conf');
  const hard = (flag, cap) => {
    const value = spawnSync('sh', ['-c', `ulimit -H${flag}`], { encoding: 'utf8' }).stdout.trim();
    return /^\d+$/.test(value) ? Math.min(Number(value), cap) : cap;
  };
  // Processes are counted per user over every container of UID 1000 (Chromium's threads included).
  const nofile = hard('n', 1048576);
  const nproc = hard('u', 32768);
  const lines = [
    '[containers]',
    `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
  ];
  if (have('runc')) lines.push('[engine]', 'runtime = "runc"');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function podmanEnv() {
  return { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? containersConf() };
}

function podman(args, options = {}) {
  return sh('podman', args, { env: podmanEnv(), ...options });
}

function imageExists(name) {
  return spawnSync('podman', ['image', 'exists', name], { env: podmanEnv() }).status === 0;
}

/** Debian bookworm, minimal, from debootstrap: a folder once, then an image. */
function debianImage() {
  if (imageExists(LOCAL_DEBIAN)) return LOCAL_DEBIAN;
  if (!have('debootstrap')) throw new Error('no registry answers and debootstrap is not installed');
  const tree = path.join(cacheDir, 'bookworm');
  if (!existsSync(path.join(tree, 'etc/debian_version'))) {
    rmSync(tree, { recursive: true, force: true });
    log(`debootstrap bookworm from ${mirror} (about a minute)`);
    sh('debootstrap', ['--variant=minbase', 'bookworm', tree, mirror], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  log(`importing ${LOCAL_DEBIAN}`);
  sh('sh', ['-c', `tar -C "$0" -c . | podman import - "$1" >/dev/null`, tree, LOCAL_DEBIAN], {
    env: podmanEnv(),
  });
  return LOCAL_DEBIAN;
}

/** Node 22 and npm 10 on the debootstrap base, laid out as in the public node image. */
function localBase() {
  if (imageExists(LOCAL_BASE)) return LOCAL_BASE;
  const debian = debianImage();
  const context = mkdtempSync(path.join(tmpdir(), 'readiness-node-base-'));
  try {
    const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
    if (!arch) throw new Error(`no Node.js package for ${process.arch}`);
    const pack = (spec) =>
      spawnSync('npm', ['pack', '--silent', spec], { cwd: context, encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .pop();
    const nodeTgz = pack(`node-linux-${arch}@22`);
    const npmTgz = pack('npm@10');
    if (!nodeTgz || !npmTgz) throw new Error('npm pack of node-linux and npm failed');
    sh('tar', ['-xzf', nodeTgz, '--strip-components=2', 'package/bin/node'], { cwd: context });
    mkdirSync(path.join(context, 'npm'));
    sh('tar', ['-xzf', npmTgz, '-C', 'npm', '--strip-components=1'], { cwd: context });
    for (const f of [nodeTgz, npmTgz]) rmSync(path.join(context, f));
    // HTTPS inside the build (npm ci) may go through this machine's interception proxy: trust what it trusts.
    copyFileSync('/etc/ssl/certs/ca-certificates.crt', path.join(context, 'build-ca.crt'));
    writeFileSync(
      path.join(context, 'Containerfile'),
      [
        `FROM ${debian}`,
        'COPY build-ca.crt /etc/ssl/build-ca.crt',
        'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/build-ca.crt',
        'COPY node /usr/local/bin/node',
        'COPY npm /usr/local/lib/node_modules/npm',
        'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\',
        ' && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\',
        ' && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \\',
        ' && node --version && npm --version',
        'CMD ["node"]',
        '',
      ].join('\n'),
    );
    log(`building ${LOCAL_BASE}`);
    podman(['build', '--quiet', '--format', 'docker', '--network', 'host', '-t', LOCAL_BASE, context]);
    return LOCAL_BASE;
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

/** NODE_IMAGE, else the public base when a registry answers, else the local one. */
function nodeImage() {
  if (process.env.NODE_IMAGE) return process.env.NODE_IMAGE;
  if (imageExists(PUBLIC_BASE)) return PUBLIC_BASE;
  const pulled = spawnSync('timeout', ['60', 'podman', 'pull', '--quiet', PUBLIC_BASE], {
    env: podmanEnv(),
    stdio: 'ignore',
  });
  if (pulled.status === 0) return PUBLIC_BASE;
  log(`${PUBLIC_BASE} cannot be pulled: using a base made here`);
  return localBase();
}

const imageName = (service) => `${prefix}${service}:${tag}`;

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** The files of the host's build that the images of `names` are made from, those missing. */
function missingBuild(names) {
  const wanted = ['packages/kit/dist/http/index.js', 'proto/dist/index.js'];
  for (const service of names) wanted.push(`services/${service}/dist/main.js`);
  if (names.includes('gateway')) wanted.push('web/dist/index.html');
  return wanted.filter((file) => !existsSync(path.join(root, file)));
}

const runtimeStage = (service) => (CHROMIUM.has(service) ? 'runtime-chromium' : 'runtime-plain');

const buildArgs = (base) => [
  'build',
  '--format',
  'docker',
  '--network',
  'host',
  '-f',
  'deploy/Dockerfile',
  '--build-arg',
  `NODE_IMAGE=${base}`,
];

function build(names) {
  for (const service of names)
    if (!services.includes(service)) throw new Error(`no such service: ${service} (${services.join(', ')})`);
  const missing = missingBuild(names);
  if (missing.length)
    throw new Error(
      `the images are made from the host's build, and ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing: run \`make build\` first`,
    );
  if (!have('podman'))
    throw new Error('podman is not installed (apt-get install podman buildah runc debootstrap)');
  const begun = Date.now();
  const base = nodeImage();
  log(`base ${base} ready in ${seconds(begun)}`);
  // The runtime stages (the one layer of production modules, and Chromium on it) are built once and tagged, and
  // each service's image is built on the tagged one: buildah then skips those stages instead of checking each of
  // their cached steps again for every image.
  const runtimes = {};
  for (const stage of new Set(names.map(runtimeStage))) {
    const started = Date.now();
    runtimes[stage] = `${prefix}${stage}:${tag}`;
    log(`building ${runtimes[stage]} (the ${stage} stage)`);
    podman([...buildArgs(base), '--target', stage, '-t', runtimes[stage], '.'], { cwd: root });
    log(`${runtimes[stage]} built in ${seconds(started)}`);
  }
  for (const service of names) {
    const started = Date.now();
    const args = [...buildArgs(base), '--build-arg', `SERVICE=${service}`];
    args.push('--build-arg', `RUNTIME_BASE=${runtimes[runtimeStage(service)]}`);
    args.push('-t', imageName(service), '.');
    log(`building ${imageName(service)} on ${runtimes[runtimeStage(service)]}`);
    podman(args, { cwd: root });
    log(`${imageName(service)} built in ${seconds(started)}`);
  }
  log(`${names.length} image${names.length > 1 ? 's' : ''} built in ${seconds(begun)}`);
}

const args = process.argv.slice(2);
if (args.includes('--print')) {
  process.stdout.write(
    `${JSON.stringify({ images: Object.fromEntries(services.map((s) => [s, imageName(s)])), env: { CONTAINERS_CONF: podmanEnv().CONTAINERS_CONF } }, null, 2)}\n`,
  );
} else {
  try {
    build(args.length ? args : services);
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
