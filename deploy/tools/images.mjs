#!/usr/bin/env node
// Builds every service's image from deploy/Dockerfile with podman (`make images`).
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

function build(names) {
  if (!have('podman'))
    throw new Error('podman is not installed (apt-get install podman buildah runc debootstrap)');
  const base = nodeImage();
  for (const service of names) {
    if (!services.includes(service)) throw new Error(`no such service: ${service} (${services.join(', ')})`);
    const started = Date.now();
    const args = ['build', '--format', 'docker', '--network', 'host', '-f', 'deploy/Dockerfile'];
    args.push('--build-arg', `NODE_IMAGE=${base}`, '--build-arg', `SERVICE=${service}`);
    // Given even when it is the default: buildah resolves a stage named by an ARG in FROM only from --build-arg.
    args.push('--build-arg', `RUNTIME_BASE=${CHROMIUM.has(service) ? 'runtime-chromium' : 'runtime-plain'}`);
    args.push('-t', imageName(service), '.');
    log(`building ${imageName(service)} on ${base}`);
    podman(args, { cwd: root });
    log(`${imageName(service)} built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

const args = process.argv.slice(2);
if (args.includes('--print')) {
  process.stdout.write(
    `${JSON.stringify({ images: Object.fromEntries(services.map((s) => [s, imageName(s)])), env: { CONTAINERS_CONF: podmanEnv().CONTAINERS_CONF } }, null, 2)}\n`,
  );
} else {
  build(args.length ? args : services);
}
