import Ajv from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { chartDir, repoRoot } from './helm';

type Artifact = {
  image: string;
  context: string;
  docker: { dockerfile: string; buildArgs: Record<string, string> };
};
type Release = {
  name: string;
  chartPath: string;
  valuesFiles?: string[];
  setValueTemplates: Record<string, string>;
};
type Profile = {
  name: string;
  patches?: { path: string }[];
  deploy?: { helm: { releases: Release[] } };
  portForward?: { resourceName: string; port: number }[];
};
type Skaffold = {
  apiVersion: string;
  build: { artifacts: Artifact[] };
  deploy: { helm: { releases: Release[] } };
  profiles: Profile[];
};

const source = readFileSync(path.join(repoRoot, 'skaffold.yaml'), 'utf8');
// Skaffold reads YAML 1.1 merge keys (`<<: *release`), so the test does too.
const config = parse(source, { merge: true }) as Skaffold;
const schema = JSON.parse(readFileSync(path.join(repoRoot, 'deploy/schemas/skaffold-v4beta14.json'), 'utf8'));
// The published schema uses non-standard keywords (x-intellij-*, markdownDescription): not strict.
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
const chartServices = Object.keys(
  (parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as { services: Record<string, unknown> })
    .services,
);

describe('skaffold.yaml', () => {
  test('when validated against the Skaffold v4beta14 schema, then it is valid', () => {
    expect(config.apiVersion).toBe('skaffold/v4beta14');
    expect(validate(config) ? [] : validate.errors).toEqual([]);
  });

  test('when a key is misspelt, then the schema rejects it', () => {
    const broken = structuredClone(config) as unknown as { build: { artifacts: Record<string, unknown>[] } };
    (broken.build.artifacts[0] as Record<string, unknown>).dockerfile = 'deploy/Dockerfile';
    expect(validate(broken)).toBe(false);
  });

  test('when images are built, then there is one artifact per chart service, from the root with the shared Dockerfile', () => {
    expect(config.build.artifacts.map((a) => a.docker.buildArgs.SERVICE).sort()).toEqual(
      [...chartServices].sort(),
    );
    for (const a of config.build.artifacts) {
      const service = a.docker.buildArgs.SERVICE as string;
      expect(a).toMatchObject({
        image: `readiness-${service}`,
        context: '.',
        docker: { dockerfile: 'deploy/Dockerfile' },
      });
      expect(existsSync(path.join(repoRoot, 'services', service))).toBe(true);
    }
  });

  test('when deployed, then every built image reaches its chart service by repository, tag and digest', () => {
    const releases = [
      config.deploy.helm.releases,
      ...config.profiles.map((p) => p.deploy?.helm.releases ?? []),
    ].flat();
    for (const release of releases) {
      expect(release).toMatchObject({ name: 'readiness', chartPath: 'charts/readiness' });
      for (const a of config.build.artifacts) {
        const key = a.image.replace(/[^A-Za-z0-9]/g, '_');
        const service = a.docker.buildArgs.SERVICE;
        expect(release.setValueTemplates[`services.${service}.image.repository`]).toBe(
          `{{.IMAGE_REPO_${key}}}`,
        );
        expect(release.setValueTemplates[`services.${service}.image.tag`]).toBe(
          `{{.IMAGE_TAG_${key}}}@{{.IMAGE_DIGEST_${key}}}`,
        );
      }
    }
  });

  test('when a profile is chosen, then it adds its own values file, which exists, without patching list positions', () => {
    const expected: Record<string, string> = {
      dev: 'values-dev.yaml',
      staging: 'values-staging.yaml',
      prod: 'values-production.yaml',
    };
    expect(config.profiles.map((p) => p.name).sort()).toEqual(Object.keys(expected).sort());
    for (const profile of config.profiles) {
      const files = profile.deploy?.helm.releases.flatMap((r) => r.valuesFiles ?? []) ?? [];
      expect(files).toEqual([`charts/readiness/${expected[profile.name]}`]);
      for (const f of files) expect(existsSync(path.join(repoRoot, f))).toBe(true);
      for (const patch of profile.patches ?? []) expect(patch.path).not.toMatch(/\/\d+(\/|$)/);
    }
    expect(source).not.toMatch(/path:\s*\S*\/\d+(\/|\s|$)/);
  });

  test('when developing, then the gateway Service is forwarded to localhost:8080', () => {
    const dev = config.profiles.find((p) => p.name === 'dev');
    expect(dev?.portForward).toEqual([
      expect.objectContaining({
        resourceType: 'service',
        resourceName: 'readiness-gateway',
        port: 8080,
        localPort: 8080,
      }),
    ]);
  });
});
