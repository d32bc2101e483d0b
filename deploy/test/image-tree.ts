import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  assignments,
  parseDockerfile,
  splitFlags,
  substitute,
  type Instruction,
  type Stage,
} from './dockerfile';
import { repoRoot } from './helm';

/**
 * Assembles the file tree of one service's image the way deploy/Dockerfile builds it, without a Docker engine:
 * the final stage's COPY steps are read from the Dockerfile and each source stage is reproduced.
 *
 * - Stages that start from the build context (manifests, prod-deps) get a fresh folder, their COPY steps are
 *   copied from the repository and their RUN steps run there (npm from the local cache, offline).
 * - The build stage runs in the repository itself, which is that stage's state once `make build` has installed
 *   and compiled it (dev dependencies, `tsc -b`, the web app); its RUN steps run there and write `/out` to a
 *   scratch folder, from which the files .dockerignore keeps out of the build context are then dropped.
 *
 * A RUN step this file does not know fails the assembly, so a change to the Dockerfile cannot slip past it.
 */

// Outside the repository: no dot-folder on the way (Express refuses to send files below one, as from /app it would
// not), and every user may enter it (the service runs as the image's USER).
const cacheRoot = path.join(tmpdir(), 'readiness-image-trees');
const dockerfilePath = path.join(repoRoot, 'deploy/Dockerfile');

export interface ImageTree {
  /** The image's root: `/app` of the image is `${root}/app`. */
  root: string;
  /** WORKDIR of the final stage, as a folder inside `root`. */
  workdir: string;
  env: Record<string, string>;
  /** `USER` of the final stage, `uid:gid`. */
  user?: string;
  cmd: string[];
  healthcheck?: string[];
}

interface StageState {
  env: Record<string, string>;
  args: Record<string, string>;
  workdir: string;
  user?: string;
  cmd?: string[];
  healthcheck?: string[];
}

/** Where a path of a stage's file system lies on this machine. */
type HostPath = (containerPath: string) => string;

interface Run {
  /** What the step is, for the error that names an unknown one. */
  pattern: RegExp;
  run(command: string, state: StageState, host: HostPath): void;
}

function sh(command: string, cwd: string, env: Record<string, string>): void {
  const res = spawnSync('sh', ['-c', command], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) {
    throw new Error(`\`${command}\` failed in ${cwd} (${res.status}):\n${res.stdout}\n${res.stderr}`);
  }
}

/** `npm ci` from the local cache; npm refuses a lock file without every platform's optional entries, so that case
 * falls back to `npm install` with the same arguments, which installs exactly the locked versions it can. */
function npmCiOffline(command: string, cwd: string, env: Record<string, string>): void {
  // The install's own flags go on `npm ci`, before any clean-up chained after it with &&.
  const [install, ...after] = command.split(/\s*&&\s*/);
  const offline = [`${install} --offline --no-audit --no-fund`, ...after].join(' && ');
  try {
    sh(offline, cwd, env);
  } catch (err) {
    if (!/in sync/.test(String(err))) throw err;
    // A Docker build stops here; say so, and go on to check the rest of the image.
    console.warn(
      'npm ci refuses package-lock.json (an image build would stop there); installing with npm install',
    );
    sh(offline.replace(/^npm ci\b/, 'npm install'), cwd, env);
  }
}

const RUNS: Run[] = [
  // Guards that only check the build arguments.
  { pattern: /^test -[nd] /, run: (c, s, host) => sh(c, host(s.workdir), s.args) },
  // The build stage's full install: the repository already has it (`make build` runs `npm ci`).
  {
    pattern: /^npm ci$/,
    run: (_c, _s, host) => {
      if (!existsSync(path.join(host('/app'), 'node_modules/.bin/tsc'))) {
        throw new Error('the repository has no dev dependencies installed: run `make build` first');
      }
    },
  },
  { pattern: /^npx tsc -b /, run: (c, s, host) => sh(c, host(s.workdir), s.args) },
  // The web app for the gateway image, built by `make build`; built here only when missing.
  {
    pattern: /^if \[ "\$SERVICE" = gateway \]; then npm run build --workspace web/,
    run: (c, s, host) => {
      if (!existsSync(path.join(host('/app'), 'web/dist/index.html'))) sh(c, host(s.workdir), s.args);
    },
  },
  { pattern: /^npm run build:assets /, run: (c, s, host) => sh(c, host(s.workdir), s.args) },
  // Collecting what the service runs into /out: the same shell code, with /out in the scratch folder.
  {
    pattern: /^set -eu;\s+for dir in /,
    run: (c, s, host) => sh(c.replace(/(^|[\s"])\/out\b/g, `$1${host('/out')}`), host(s.workdir), s.args),
  },
  // Production dependencies of the service.
  {
    pattern: /^npm ci --omit=dev /,
    run: (c, s, host) => npmCiOffline(c, host(s.workdir), { ...s.env, ...s.args }),
  },
];

function runStep(instruction: Instruction, state: StageState, host: HostPath): void {
  const { rest: command } = splitFlags(instruction.args);
  const step = RUNS.find((r) => r.pattern.test(command));
  if (!step) throw new Error(`deploy/Dockerfile has a RUN step the image test cannot reproduce: ${command}`);
  step.run(command, state, host);
}

/** A regular expression's source for a glob without `**`: `*` and `?` stay within one path segment. */
const globSource = (glob: string) =>
  glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');

/** Files of the build context matching a COPY source (`*` within one path segment). */
function expand(pattern: string): string[] {
  let matches = [''];
  for (const segment of pattern.replace(/\/$/, '').split('/')) {
    const re = new RegExp(`^${globSource(segment)}$`);
    matches = matches.flatMap((dir) => {
      const base = path.join(repoRoot, dir);
      if (!segment.includes('*'))
        return existsSync(path.join(base, segment)) ? [path.join(dir, segment)] : [];
      return existsSync(base) && statSync(base).isDirectory()
        ? readdirSync(base)
            .filter((n) => re.test(n))
            .map((n) => path.join(dir, n))
        : [];
    });
  }
  if (!matches.length) throw new Error(`COPY source ${pattern} matches nothing in the build context`);
  return matches;
}

interface Dockerfile {
  stages: Stage[];
  globalArgs: Record<string, string>;
}

function readDockerfile(buildArgs: Record<string, string>): Dockerfile {
  const { preamble, stages } = parseDockerfile(readFileSync(dockerfilePath, 'utf8'));
  const globalArgs: Record<string, string> = {};
  for (const i of preamble.filter((x) => x.keyword === 'ARG')) {
    for (const [name, value] of assignments(i.args)) globalArgs[name] = buildArgs[name] ?? value ?? '';
  }
  return { stages, globalArgs };
}

/** The stages from the external base image down to `name`, in build order. */
function chain(file: Dockerfile, name: string): Stage[] {
  const stage = file.stages.find((s) => s.name === name);
  if (!stage) return [];
  return [...chain(file, substitute(stage.from, file.globalArgs)), stage];
}

/**
 * Plays the instructions of a stage and its parents. `host` places the stage's paths; `fromContext` copies a
 * COPY source of the build context; `fromStage` copies from another stage.
 */
function play(
  file: Dockerfile,
  name: string,
  buildArgs: Record<string, string>,
  host: HostPath,
  copy: {
    fromContext(src: string, dest: string, parents: boolean): void;
    fromStage?(stage: string, src: string, dest: string): void;
  },
): StageState {
  const state: StageState = { env: {}, args: {}, workdir: '/' };
  for (const stage of chain(file, name)) {
    state.args = {};
    for (const i of stage.instructions) {
      const vars = { ...state.env, ...state.args };
      switch (i.keyword) {
        case 'ARG':
          for (const [k, v] of assignments(i.args))
            state.args[k] = buildArgs[k] ?? file.globalArgs[k] ?? v ?? '';
          break;
        case 'ENV':
          for (const [k, v] of assignments(substitute(i.args, vars))) state.env[k] = v ?? '';
          break;
        case 'WORKDIR':
          state.workdir = path.posix.resolve(state.workdir, substitute(i.args, vars));
          mkdirSync(host(state.workdir), { recursive: true });
          break;
        case 'USER':
          state.user = substitute(i.args, vars);
          break;
        case 'CMD':
          state.cmd = JSON.parse(i.args) as string[];
          break;
        case 'HEALTHCHECK':
          state.healthcheck = JSON.parse(i.args.replace(/^.*?CMD\s+/, '')) as string[];
          break;
        case 'RUN':
          runStep(i, { ...state, env: state.env, args: state.args }, host);
          break;
        case 'COPY': {
          const { flags, rest } = splitFlags(substitute(i.args, vars));
          const operands = rest.split(/\s+/);
          const dest = path.posix.resolve(state.workdir, operands.pop() as string);
          for (const src of operands) {
            if (flags.from) {
              if (!copy.fromStage)
                throw new Error(`COPY --from in stage ${stage.name ?? '?'} is not reproduced`);
              copy.fromStage(flags.from, src, dest);
            } else copy.fromContext(src, dest, flags.parents === 'true');
          }
          break;
        }
        case 'EXPOSE':
          break;
        default:
          throw new Error(`deploy/Dockerfile instruction ${i.keyword} is not reproduced by the image test`);
      }
    }
  }
  return state;
}

const hashOf = (...parts: string[]) => {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p).update('\0');
  return hash.digest('hex').slice(0, 16);
};

/** Copies a folder's content; hard links where possible (the cache and the tree share a file system). */
function copyTree(from: string, to: string): void {
  mkdirSync(path.dirname(to), { recursive: true });
  const res = spawnSync('cp', ['-al', from, to]);
  if (res.status !== 0) cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

/**
 * A stage that starts from the build context, in its own folder, kept between runs under a key of the
 * Dockerfile, the build arguments and the manifests (package.json files and the lock) it copies.
 */
function contextStage(file: Dockerfile, name: string, buildArgs: Record<string, string>): string {
  const inputs: string[] = [readFileSync(dockerfilePath, 'utf8'), JSON.stringify(buildArgs)];
  for (const stage of chain(file, name)) {
    for (const i of stage.instructions.filter((x) => x.keyword === 'COPY' && !x.args.includes('--from'))) {
      const operands = splitFlags(i.args).rest.split(/\s+/).slice(0, -1);
      for (const src of operands.flatMap(expand))
        inputs.push(src, readFileSync(path.join(repoRoot, src), 'utf8'));
    }
  }
  const prefix = `${name}-${Object.values(buildArgs).join('-')}-`;
  const dir = path.join(cacheRoot, `${prefix}${hashOf(...inputs)}`);
  if (existsSync(dir)) return dir;
  // Trees of older manifests go; one younger than an hour may still be in use by another run.
  mkdirSync(cacheRoot, { recursive: true });
  for (const old of readdirSync(cacheRoot).filter((n) => n.startsWith(prefix) && !n.includes('.partial'))) {
    const at = path.join(cacheRoot, old);
    if (Date.now() - statSync(at).mtimeMs > 3_600_000) rmSync(at, { recursive: true, force: true });
  }
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const host: HostPath = (p) => path.join(partial, p);
  play(file, name, buildArgs, host, {
    fromContext(src, dest, parents) {
      for (const match of expand(src)) {
        const target = parents ? path.join(host(dest), match) : path.join(host(dest), path.basename(match));
        mkdirSync(path.dirname(target), { recursive: true });
        cpSync(path.join(repoRoot, match), target, { recursive: true });
      }
    },
  });
  renameSync(partial, dir);
  return dir;
}

/** Docker's .dockerignore patterns as one test: a path is out when it or one of its parent folders matches. */
function dockerignore(): (file: string) => boolean {
  const patterns = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (patterns.some((p) => p.startsWith('!')))
    throw new Error('.dockerignore exceptions (!) are not reproduced');
  const res = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/^\/+|\/+$/g, '')
          .split('**/')
          .map(globSource)
          .join('(?:.*/)?')}$`,
      ),
  );
  return (file) => {
    const parts = file.split('/');
    return parts.some((_, i) => res.some((re) => re.test(parts.slice(0, i + 1).join('/'))));
  };
}

/**
 * Drops from `/out` the files the build context would not have had: files of the repository (tracked, or new and
 * not git-ignored) that .dockerignore keeps out. Build output (git-ignored: dist, web/dist) stays.
 */
function pruneToContext(outDir: string): void {
  const ignored = dockerignore();
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (ignored(file)) rmSync(path.join(outDir, file), { force: true });
  }
}

/** The build stage, in the repository itself; `/out` goes to `outDir`. */
function buildStage(file: Dockerfile, buildArgs: Record<string, string>, outDir: string): void {
  rmSync(path.dirname(outDir), { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const host: HostPath = (p) => {
    if (p === '/out' || p.startsWith('/out/')) return path.join(outDir, p.slice('/out'.length));
    if (p === '/app' || p.startsWith('/app/')) return path.join(repoRoot, p.slice('/app'.length));
    throw new Error(`the build stage uses ${p}, which the image test does not place`);
  };
  play(file, 'build', buildArgs, host, {
    fromContext(src, dest) {
      // The repository is the build context and the build stage's /app at once.
      const target = path.relative(repoRoot, host(dest));
      if (target && !path.normalize(src).startsWith(target)) {
        throw new Error(`COPY ${src} ${dest} does not place the context where the repository has it`);
      }
    },
  });
  pruneToContext(outDir);
}

/**
 * Assembles the image of `service` under a fresh folder and returns how to start it. Call `remove` on the
 * result's root when done (the production dependencies stay cached).
 */
export function assembleImage(service: string): ImageTree {
  const buildArgs = { SERVICE: service };
  const file = readDockerfile(buildArgs);
  const finalStage = file.stages[file.stages.length - 1] as Stage;
  const root = path.join(cacheRoot, `tree-${service}-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  const built = new Map<string, string>();
  const stageRoot = (name: string): string => {
    let dir = built.get(name);
    if (dir) return dir;
    if (name === 'build') {
      // The build stage's /app is the repository; only its /out lives here.
      dir = path.join(cacheRoot, `build-${service}-${process.pid}`);
      buildStage(file, buildArgs, path.join(dir, 'out'));
    } else {
      dir = contextStage(file, name, buildArgs);
    }
    built.set(name, dir);
    return dir;
  };
  const host: HostPath = (p) => path.join(root, p);
  const state = play(file, finalStage.name as string, buildArgs, host, {
    fromContext(src) {
      throw new Error(
        `the runtime stage copies ${src} from the build context; the image test does not expect that`,
      );
    },
    fromStage(stage, src, dest) {
      const from = path.join(stageRoot(stage), src);
      if (!existsSync(from)) throw new Error(`COPY --from=${stage} ${src}: the stage has no such path`);
      if (src.endsWith('/')) {
        mkdirSync(host(dest), { recursive: true });
        for (const entry of readdirSync(from)) copyTree(path.join(from, entry), path.join(host(dest), entry));
      } else {
        rmSync(host(dest), { recursive: true, force: true });
        copyTree(from, host(dest));
      }
    },
  });
  const buildRoot = built.get('build');
  if (buildRoot) rmSync(buildRoot, { recursive: true, force: true });
  if (!state.cmd) throw new Error('the final stage has no CMD');
  return {
    root,
    workdir: host(state.workdir),
    env: state.env,
    user: state.user,
    cmd: state.cmd,
    healthcheck: state.healthcheck,
  };
}
