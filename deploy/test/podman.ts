/**
 * The chart's workloads as podman containers: the images `make images` builds (deploy/tools/images.mjs), started
 * with what the rendered Deployment or Job gives its container (image, command, working directory, environment,
 * user, read-only root, capabilities, writable volumes, grace period). Kubernetes Services become host names on
 * loopback addresses of their own (`--add-host`), so the chart's URLs (`http://readiness-auth:8080`) are used as
 * rendered.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { find, repoRoot, type K8sObject } from './helm';

const script = path.join(repoRoot, 'deploy/tools/images.mjs');

export const podmanInstalled = (): boolean => spawnSync('podman', ['--version']).status === 0;

/**
 * Whether this run must build and boot the images: where podman is installed, or when READINESS_IMAGES=required
 * (CI), which fails instead of skipping on a machine without it.
 */
export function imagesWanted(): boolean {
  if (podmanInstalled()) return true;
  if (process.env.READINESS_IMAGES === 'required') throw new Error('READINESS_IMAGES=required but no podman');
  console.warn(
    'podman is not installed: the image tests are skipped (apt-get install podman buildah runc mmdebstrap)',
  );
  return false;
}

export interface Images {
  /** Image name per service (`localhost/readiness-auth:dev`). */
  names: Record<string, string>;
  /** podman's environment (CONTAINERS_CONF: runc, limits). */
  env: NodeJS.ProcessEnv;
  /** Chart values that make the rendered workloads name these images. */
  chartValues: string[];
}

/** The images `make images` builds; those missing are built first (about a minute each, more the first time). */
export function builtImages(): Images {
  const printed = JSON.parse(execFileSync(process.execPath, [script, '--print'], { encoding: 'utf8' })) as {
    images: Record<string, string>;
    env: Record<string, string>;
  };
  const env = { ...process.env, ...printed.env };
  const missing = Object.entries(printed.images)
    .filter(([, name]) => spawnSync('podman', ['image', 'exists', name], { env }).status !== 0)
    .map(([service]) => service);
  if (missing.length) execFileSync(process.execPath, [script, ...missing], { stdio: 'inherit' });
  const chartValues = ['global.imageRegistry='];
  for (const [service, name] of Object.entries(printed.images)) {
    const [repository, tag] = name.split(/:(?=[^:/]+$)/) as [string, string];
    chartValues.push(
      `services.${service}.image.repository=${repository}`,
      `services.${service}.image.tag=${tag}`,
    );
  }
  return { names: printed.images, env, chartValues };
}

/** Runs podman; its output, or an error with what it wrote. */
export function podman(images: Pick<Images, 'env'>, args: string[]): string {
  const result = spawnSync('podman', args, { env: images.env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0)
    throw new Error(
      `podman ${args.join(' ')} exited with ${result.status}:\n${result.stderr}${result.stdout}`,
    );
  return result.stdout;
}

interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface ContainerSpec {
  image: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string } }[];
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  securityContext?: SecurityContext;
  terminationGracePeriodSeconds?: number;
  containers: ContainerSpec[];
  volumes?: { name: string; emptyDir?: { medium?: string; sizeLimit?: string } }[];
}

/** A Kubernetes quantity (`64Mi`, `1Gi`) as tmpfs takes it; any other form is refused, not guessed. */
function tmpfsSize(quantity: string | undefined): string {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(quantity ?? '');
  if (!match) throw new Error(`an emptyDir sizeLimit of ${quantity ?? 'none'}: give it in Ki, Mi or Gi`);
  const unit = { Ki: 'k', Mi: 'm', Gi: 'g' }[match[2] ?? ''] ?? '';
  return `${match[1]}${unit}`;
}

/** What starting a workload needs: the values of the Secrets it names, and a loopback address per host name. */
export interface Cluster {
  images: Images;
  objects: K8sObject[];
  /** `secret/key` → value; a missing optional key is left unset, a missing required one fails. */
  secrets: Record<string, string>;
  /** Kubernetes Service name → the loopback address its workload listens on. */
  hosts: Record<string, string>;
}

export interface Workload {
  kind: 'Deployment' | 'Job';
  name: string;
  image: string;
  argv: string[];
  /** The environment as the pod gets it, secrets filled in. */
  env: Record<string, string>;
  /** podman run flags for the pod's security context, volumes and host names. */
  flags: string[];
  graceSeconds: number;
}

/** The first container of a rendered Deployment or Job, as podman run arguments. */
export function workload(cluster: Cluster, kind: Workload['kind'], name: string): Workload {
  const object = find(cluster.objects, kind, name) as K8sObject & {
    spec: { template: { spec: PodSpec } };
  };
  const pod = object.spec.template.spec;
  const container = pod.containers[0]!;
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const map = source.configMapRef?.name;
    if (map)
      Object.assign(env, (find(cluster.objects, 'ConfigMap', map) as K8sObject & { data: object }).data);
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    if (!ref) {
      env[entry.name] = entry.value ?? '';
      continue;
    }
    const value = cluster.secrets[`${ref.name}/${ref.key}`];
    if (value !== undefined) env[entry.name] = value;
    else if (!ref.optional) throw new Error(`${name} needs the secret ${ref.name}/${ref.key}`);
  }
  const security = { ...pod.securityContext, ...container.securityContext };
  const flags: string[] = [];
  if (security.runAsUser !== undefined)
    flags.push('--user', `${security.runAsUser}:${security.runAsGroup ?? security.runAsUser}`);
  // Only what the pod mounts is writable: no tmpfs of podman's own on /tmp, /var/tmp and /run.
  if (security.readOnlyRootFilesystem) flags.push('--read-only', '--read-only-tmpfs=false');
  if (security.allowPrivilegeEscalation === false) flags.push('--security-opt', 'no-new-privileges');
  for (const cap of security.capabilities?.drop ?? []) flags.push('--cap-drop', cap);
  for (const cap of security.capabilities?.add ?? []) flags.push('--cap-add', cap);
  for (const mount of container.volumeMounts ?? []) {
    const volume = pod.volumes?.find((v) => v.name === mount.name);
    if (!volume?.emptyDir) throw new Error(`${name} mounts ${mount.name}, which is not an emptyDir`);
    flags.push('--tmpfs', `${mount.mountPath}:rw,mode=1777,size=${tmpfsSize(volume.emptyDir.sizeLimit)}`);
  }
  if (container.workingDir) flags.push('--workdir', container.workingDir);
  for (const [host, address] of Object.entries(cluster.hosts)) flags.push('--add-host', `${host}:${address}`);
  return {
    kind,
    name,
    image: container.image,
    argv: [...(container.command ?? []), ...(container.args ?? [])],
    env,
    flags,
    graceSeconds: pod.terminationGracePeriodSeconds ?? 30,
  };
}

export interface Container {
  id: string;
  name: string;
  workload: Workload;
  /** What the container wrote so far. */
  logs(): string;
  /** The host's view of its main process (`/proc/<pid>`). */
  pid(): number;
  /** podman's record of it (State, Config). */
  inspect(): { State: { Running: boolean; ExitCode: number; Pid: number }; Config: { User: string } };
  /** Runs a command inside it as its user; status and output. */
  exec(argv: string[]): { status: number; output: string };
  /** `podman stop` with the pod's grace period; the exit code and the seconds it took. */
  stop(): { exitCode: number; seconds: number };
  remove(): void;
}

/**
 * Starts a workload detached, on the host's network (its own loopback address, from `hosts`), with `extraEnv` last.
 */
export function start(cluster: Cluster, load: Workload, extraEnv: Record<string, string> = {}): Container {
  const name = `readiness-test-${load.name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const env = { ...load.env, ...extraEnv };
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
  const images = cluster.images;
  const id = podman(images, [
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    'host',
    // podman's health timers need systemd; the HEALTHCHECK is run by hand (podman healthcheck run).
    '--health-interval',
    'disable',
    ...load.flags,
    ...envArgs,
    load.image,
    ...load.argv,
  ]).trim();
  const inspect = () =>
    (JSON.parse(podman(images, ['inspect', id])) as [ReturnType<Container['inspect']>])[0];
  return {
    id,
    name,
    workload: load,
    logs: () => {
      const r = spawnSync('podman', ['logs', id], { env: images.env, encoding: 'utf8', maxBuffer: 64 << 20 });
      return `${r.stdout}${r.stderr}`;
    },
    pid: () => inspect().State.Pid,
    inspect,
    exec: (argv) => {
      const r = spawnSync('podman', ['exec', id, ...argv], { env: images.env, encoding: 'utf8' });
      return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
    },
    stop: () => {
      const started = Date.now();
      podman(images, ['stop', '--time', String(load.graceSeconds), id]);
      return { exitCode: inspect().State.ExitCode, seconds: (Date.now() - started) / 1000 };
    },
    remove: () => {
      spawnSync('podman', ['rm', '--force', '--time', '0', id], { env: images.env });
    },
  };
}

/** Waits for a container to exit (a Job); its exit code. */
export function waitExit(cluster: Cluster, container: Container): number {
  return Number(podman(cluster.images, ['wait', container.id]).trim());
}

/** The real user id of a process, from /proc. */
export function processUid(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Uid:'));
  return Number(line?.split(/\s+/)[1]);
}
