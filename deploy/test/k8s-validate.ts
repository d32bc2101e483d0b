import Ajv from 'ajv';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as core from 'kubernetes-models/v1';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { K8sObject } from './helm';

type Validator = { prototype: { validate(this: unknown): void } };

/** kubernetes-models classes by apiVersion, one module per API group version. */
const modules: Record<string, Record<string, unknown>> = {
  v1: core,
  'apps/v1': apps,
  'batch/v1': batch,
  'policy/v1': policy,
  'autoscaling/v2': autoscaling,
  'networking.k8s.io/v1': networking,
};

const ajv = new Ajv({ allErrors: true, strict: true });
const customResources: Record<string, ReturnType<typeof ajv.compile>> = {
  'keda.sh/v1alpha1/ScaledObject': ajv.compile(
    JSON.parse(readFileSync(path.join(__dirname, '../schemas/keda-scaledobject.json'), 'utf8')),
  ),
};

/** Wraps a value so every own property the validator reads is recorded as known. */
function track(value: unknown, at: string, seen: Set<string>): unknown {
  if (value === null || typeof value !== 'object') return value;
  return new Proxy(value as object, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof key === 'string' && Object.prototype.hasOwnProperty.call(target, key)) {
        const p = `${at}/${key}`;
        seen.add(p);
        return track(v, p, seen);
      }
      return v;
    },
  });
}

function allPaths(value: unknown, at: string, out: string[]): string[] {
  if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      out.push(`${at}/${key}`);
      allPaths(v, `${at}/${key}`, out);
    }
  }
  return out;
}

/**
 * Validates an object against the Kubernetes schema and also rejects fields the schema does not know.
 * kubernetes-models' compiled validators ignore unknown properties (the API server would prune or refuse
 * them), so the object is handed in through a proxy: every field the validator never read is unknown.
 * Returns the problems; empty means valid.
 */
export function validateStrict(obj: K8sObject): string[] {
  const crd = customResources[`${obj.apiVersion}/${obj.kind}`];
  if (crd)
    return crd(obj)
      ? []
      : (crd.errors ?? []).map(
          (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
        );

  const model = modules[obj.apiVersion]?.[obj.kind] as Validator | undefined;
  if (!model) return [`no schema for ${obj.apiVersion} ${obj.kind}`];
  const seen = new Set<string>();
  const problems: string[] = [];
  try {
    model.prototype.validate.call(track(obj, '', seen));
  } catch (err) {
    problems.push((err as Error).message);
  }
  for (const p of allPaths(obj, '', [])) {
    if (!seen.has(p)) problems.push(`${p}: unknown field`);
  }
  return problems;
}
