import { find, helm, render, templateArgs, valuesFiles, chartDir, type K8sObject } from './helm';
import { validateStrict } from './k8s-validate';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const variants = [undefined, ...valuesFiles];
const rendered = new Map(variants.map((v) => [v ?? 'values.yaml', render({ valuesFile: v })]));

describe.each(variants.map((v) => v ?? 'values.yaml'))('chart with %s', (file) => {
  const objects = rendered.get(file) as K8sObject[];
  const valuesFile = file === 'values.yaml' ? undefined : file;

  test('when linted strictly, then helm reports no problem', () => {
    const args = ['lint', '--strict', chartDir, '--kube-version', '1.30.0'];
    if (valuesFile) args.push('-f', path.join(chartDir, valuesFile));
    const res = helm(args);
    expect(res.stderr + res.stdout).toContain('0 chart(s) failed');
    expect(res.status).toBe(0);
  });

  test('when rendered, then every object is valid against its schema, unknown fields included', () => {
    const problems = objects.flatMap((o) =>
      validateStrict(o).map((p) => `${o.kind}/${o.metadata.name}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  test('when rendered, then each service has its Deployment, Service, ServiceAccount, ConfigMap and NetworkPolicy', () => {
    for (const name of ['gateway', 'auth', 'notification']) {
      for (const kind of ['Deployment', 'Service', 'ServiceAccount', 'ConfigMap', 'NetworkPolicy']) {
        expect(() => find(objects, kind, `readiness-${name}`)).not.toThrow();
      }
    }
  });

  test('when rendered, then each pod gets its service’s shutdown grace plus a margin before Kubernetes kills it', () => {
    for (const name of ['gateway', 'auth', 'notification']) {
      const config = find(objects, 'ConfigMap', `readiness-${name}`) as K8sObject & {
        data: Record<string, string>;
      };
      const deployment = find(objects, 'Deployment', `readiness-${name}`) as K8sObject & {
        spec: { template: { spec: { terminationGracePeriodSeconds: number } } };
      };
      const grace = Number(config.data.SHUTDOWN_GRACE_SECONDS);
      expect(grace).toBeGreaterThan(0);
      expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(grace + 10);
    }
  });

  test('when the cluster serves KEDA, then the consumer scales on its queues and has no HPA', () => {
    const scaled = find(objects, 'ScaledObject', 'readiness-notification') as K8sObject & {
      spec: {
        scaleTargetRef: { name: string };
        triggers: { type: string; metadata: Record<string, string> }[];
      };
    };
    expect(scaled.spec.scaleTargetRef.name).toBe('readiness-notification');
    expect(scaled.spec.triggers.length).toBeGreaterThan(0);
    for (const t of scaled.spec.triggers) {
      expect(t).toMatchObject({
        type: 'rabbitmq',
        metadata: { mode: 'QueueLength', hostFromEnv: 'AMQP_URL' },
      });
    }
    expect(
      objects.some(
        (o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'readiness-notification',
      ),
    ).toBe(false);
  });
});

describe('chart without KEDA in the cluster', () => {
  const objects = render({ keda: false, valuesFile: 'values-production.yaml' });

  test('when rendered, then there is no ScaledObject and the consumer falls back to a CPU HPA', () => {
    expect(objects.filter((o) => o.kind === 'ScaledObject')).toEqual([]);
    const hpa = find(objects, 'HorizontalPodAutoscaler', 'readiness-notification');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(objects.flatMap((o) => validateStrict(o))).toEqual([]);
  });
});

describe('shutdown grace', () => {
  test('when a service is given a longer shutdown grace, then its pod waits that long plus the margin', () => {
    const objects = render({ set: ['services.auth.shutdownGraceSeconds=45'] });
    const config = find(objects, 'ConfigMap', 'readiness-auth') as K8sObject & {
      data: Record<string, string>;
    };
    const deployment = find(objects, 'Deployment', 'readiness-auth') as K8sObject & {
      spec: { template: { spec: { terminationGracePeriodSeconds: number } } };
    };
    expect(config.data.SHUTDOWN_GRACE_SECONDS).toBe('45');
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(55);
  });
});

describe('values schema', () => {
  test('when a top-level key is misspelt, then lint and template refuse the values', () => {
    const lint = helm(['lint', '--strict', chartDir, '--set', 'servics.x=1']);
    expect(lint.status).not.toBe(0);
    const template = helm(templateArgs({ set: ['servics.x=1'] }));
    expect(template.status).not.toBe(0);
    expect(template.stderr).toMatch(/servics/);
  });

  test('when a service key is misspelt, then template refuses the values', () => {
    const res = helm(templateArgs({ set: ['services.auth.replica=3'] }));
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/replica/);
  });

  test('when a secret is given as a plain value, then template refuses it', () => {
    const res = helm(templateArgs({ set: ['services.auth.secretEnv.JWT_PRIVATE_KEY.value=hunter2'] }));
    expect(res.status).not.toBe(0);
  });

  test('when the committed schema is compared with its generator, then they match', () => {
    const res = spawnSync(process.execPath, [path.join(__dirname, '../tools/values-schema.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
  });
});

describe('adding a service', () => {
  test('when a values entry names a new service, then it gets the full set of objects', () => {
    const objects = render({
      set: [
        'services.analytics.image.repository=readiness-analytics',
        'services.analytics.shmSizeLimit=256Mi',
        'services.gateway.calls={auth,notification,analytics}',
      ],
    });
    for (const kind of [
      'Deployment',
      'Service',
      'ServiceAccount',
      'ConfigMap',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'HorizontalPodAutoscaler',
    ]) {
      expect(() => find(objects, kind, 'readiness-analytics')).not.toThrow();
    }
    const gatewayConfig = find(objects, 'ConfigMap', 'readiness-gateway') as K8sObject & {
      data: Record<string, string>;
    };
    expect(gatewayConfig.data.ANALYTICS_URL).toBe('http://readiness-analytics:8080');
    expect(objects.flatMap((o) => validateStrict(o))).toEqual([]);
  });

  test('when the gateway is set to call a service that is not there, then rendering fails with the reason', () => {
    const res = helm(templateArgs({ set: ['services.gateway.calls={auth,analytics}'] }));
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/analytics, which is not an enabled service/);
  });
});

describe('the session rules every token verifier applies', () => {
  const settingsOf = (objects: K8sObject[]) =>
    objects
      .filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.['app.kubernetes.io/name'])
      .map((o) => {
        const data = (o as K8sObject & { data: Record<string, string> }).data;
        return [o.metadata.name, data.ADMIN_SESSION_MAX_HOURS, data.OIDC_ALLOW_PASSWORD];
      });

  test('when rendered, then every service is given the same maximum session age and password rule', () => {
    const settings = settingsOf(render({ set: ['auth.sessionMaxHours=4', 'auth.allowPassword=false'] }));
    expect(settings.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'readiness-gateway',
        'readiness-auth',
        'readiness-results',
        'readiness-student',
      ]),
    );
    for (const [name, hours, allowPassword] of settings)
      expect([name, hours, allowPassword]).toEqual([name, '4', 'false']);
  });

  test('when one service sets a rule in its own env, then the chart refuses to render', () => {
    expect(() => render({ set: ['services.auth.env.OIDC_ALLOW_PASSWORD=false'] })).toThrow(
      /services\.auth\.env\.OIDC_ALLOW_PASSWORD: set it once for every service/,
    );
  });
});
