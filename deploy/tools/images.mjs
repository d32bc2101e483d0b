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
// this machine in one mmdebstrap run: Debian bookworm (minbase, with its updates and security suites and the public
// slim image's dpkg and apt settings), Node 22 and npm 10 from the npm registry, the machine's CA bundle for HTTPS
// inside the build (NODE_EXTRA_CA_CERTS, in this local base only) and the `node` user (1000) of the public image.
// podman runs with runc and an open-files limit at the hard limit, written to a containers.conf of its own
// (CONTAINERS_CONF), so the machine's settings are left alone.
//
// Environment: IMAGE_PREFIX (localhost/readiness-), IMAGE_TAG (dev), NODE_IMAGE, IMAGES_CACHE_DIR
// (/var/tmp/readiness-images: the local base's tarball), DEBIAN_MIRROR (http://deb.debian.org/debian),
// DEBIAN_SECURITY_MIRROR (http://deb.debian.org/debian-security).
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
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
const securityMirror = process.env.DEBIAN_SECURITY_MIRROR ?? 'http://deb.debian.org/debian-security';
const PUBLIC_BASE = 'docker.io/library/node:22-bookworm-slim';
const LOCAL_BASE = 'localhost/readiness-node:22-bookworm-slim';
/**
 * What makes the public Debian images "slim", in the local base's dpkg and apt settings (kept in the image, as
 * there): dpkg without fsync (a build's layers are made again, not recovered), no documentation but the copyright
 * files, no manuals or translations; package lists without translation indexes, kept compressed. The paths are
 * left out of the packages installed on the base (Chromium's); the base's own are bootstrapped whole, since
 * mmdebstrap would filter each of its archives through a slow tar filter.
 */
const SLIM_PATHS = [
  ...['doc', 'groff', 'info', 'linda', 'lintian/overrides', 'locale', 'man'].map(
    (dir) => `path-exclude=/usr/share/${dir}/*`,
  ),
  'path-include=/usr/share/doc/*/copyright',
  'path-include=/usr/share/locale/locale.alias',
];
const SLIM_APT = ['Acquire::Languages "none";', 'Acquire::GzipIndexes "true";'];
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

/**
 * Node 22 and npm 10 on Debian bookworm, laid out as the public node:22-bookworm-slim is, in one mmdebstrap run:
 * minbase from the release and its updates and security suites, with the slim image's dpkg and apt settings
 * (SLIM_PATHS, SLIM_APT), Node and npm from the npm registry, the `node` user (1000) and the machine's CA bundle.
 * The tarball is kept in IMAGES_CACHE_DIR, so an emptied image store imports it again instead of bootstrapping.
 */
function localBase() {
  if (imageExists(LOCAL_BASE)) return LOCAL_BASE;
  if (!have('mmdebstrap')) throw new Error('no registry answers and mmdebstrap is not installed');
  mkdirSync(cacheDir, { recursive: true });
  const tarball = path.join(cacheDir, 'node-22-bookworm-slim.tar');
  if (!existsSync(tarball)) {
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
      // HTTPS inside the build (npm ci) may go through this machine's interception proxy: trust what it trusts.
      copyFileSync('/etc/ssl/certs/ca-certificates.crt', path.join(context, 'build-ca.crt'));
      writeFileSync(path.join(context, 'slim'), `${SLIM_PATHS.join('\n')}\n`);
      // Run by mmdebstrap with the tree's path as $1, after the packages are installed.
      const customize = [
        'set -e',
        `cd '${context}'`,
        'install -m 0755 node "$1/usr/local/bin/node"',
        'mkdir -p "$1/usr/local/lib/node_modules" && cp -R npm "$1/usr/local/lib/node_modules/npm"',
        'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"',
        'ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
        'install -D -m 0644 build-ca.crt "$1/etc/ssl/build-ca.crt"',
        'install -m 0644 slim "$1/etc/dpkg/dpkg.cfg.d/slim"',
        'chroot "$1" groupadd --gid 1000 node',
        'chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
        'chroot "$1" node --version >&2',
        'chroot "$1" /usr/local/bin/npm --version >&2',
      ].join('\n');
      const started = Date.now();
      log(`mmdebstrap bookworm (minbase) from ${mirror} and ${securityMirror}, Node 22 and npm 10`);
      sh(
        'mmdebstrap',
        [
          '--variant=minbase',
          '--format=tar',
          '--dpkgopt=force-unsafe-io',
          ...SLIM_APT.map((option) => `--aptopt=${option}`),
          `--customize-hook=${customize}`,
          'bookworm',
          `${tarball}.partial`,
          `deb ${mirror} bookworm main`,
          `deb ${mirror} bookworm-updates main`,
          `deb ${securityMirror} bookworm-security main`,
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      renameSync(`${tarball}.partial`, tarball);
      log(`bootstrapped in ${seconds(started)}`);
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
  }
  log(`importing ${LOCAL_BASE}`);
  podman(
    [
      'import',
      '--quiet',
      '--change',
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change',
      'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/build-ca.crt',
      '--change',
      'CMD ["node"]',
      tarball,
      LOCAL_BASE,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return LOCAL_BASE;
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
    throw new Error('podman is not installed (apt-get install podman buildah runc mmdebstrap)');
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
