import { topology, upstreamNames } from '@readiness/contracts';
import { find, render, valuesFiles, type K8sObject } from './helm';

type Container = {
  name: string;
  command?: string[];
  securityContext?: Record<string, unknown>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  startupProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  volumeMounts?: { name: string; mountPath: string }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
};
type PodSpec = {
  automountServiceAccountToken?: boolean;
  securityContext?: Record<string, unknown>;
  containers: Container[];
  volumes?: { name: string; emptyDir?: Record<string, unknown> }[];
};
type Rule = {
  from?: Record<string, unknown>[];
  to?: Record<string, unknown>[];
  ports?: { port: number; protocol: string }[];
};
type Policy = K8sObject & {
  spec: {
    podSelector: { matchLabels?: Record<string, string> };
    policyTypes: string[];
    ingress?: Rule[];
    egress?: Rule[];
  };
};

function podSpec(o: K8sObject): PodSpec {
  const spec = o.spec as { template?: { spec: PodSpec } } & PodSpec;
  return o.kind === 'Pod' ? spec : (spec.template as { spec: PodSpec }).spec;
}

const workloadKinds = ['Deployment', 'Job', 'Pod'];

describe.each(['values.yaml', ...valuesFiles])('security of every workload with %s', (file) => {
  const objects = render({ valuesFile: file === 'values.yaml' ? undefined : file });
  const workloads = objects.filter((o) => workloadKinds.includes(o.kind));

  test('when rendered, then there are Deployments, migration Jobs and the test Pod to check', () => {
    // One Deployment per service of the topology table; a migration Job for each with a database.
    expect(workloads.filter((o) => o.kind === 'Deployment')).toHaveLength(topology.length);
    expect(
      workloads
        .filter((o) => o.kind === 'Job')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(
      topology
        .filter((row) => row.uses.postgres)
        .map((row) => `readiness-${row.name}-migrate`)
        .sort(),
    );
    expect(workloads.filter((o) => o.kind === 'Pod')).toHaveLength(1);
  });

  test.each(workloadKinds)(
    'when a %s runs, then it is non-root, read-only, without privileges and with a writable /tmp',
    (kind) => {
      for (const o of workloads.filter((w) => w.kind === kind)) {
        const pod = podSpec(o);
        expect(pod.automountServiceAccountToken).toBe(false);
        expect(pod.securityContext).toMatchObject({
          runAsNonRoot: true,
          runAsUser: 1000,
          seccompProfile: { type: 'RuntimeDefault' },
        });
        const tmp = pod.volumes?.find((v) => v.name === 'tmp');
        expect(tmp?.emptyDir).toBeDefined();
        for (const c of pod.containers) {
          expect(c.securityContext).toMatchObject({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          });
          expect(c.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
          expect(Object.keys(c.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
          expect(Object.keys(c.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
        }
      }
    },
  );

  test('when a Deployment runs, then it has startup, liveness and readiness probes on the health routes', () => {
    for (const o of workloads.filter((w) => w.kind === 'Deployment')) {
      const [c] = podSpec(o).containers;
      expect(c?.startupProbe?.httpGet?.path).toBe('/healthz');
      expect(c?.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(c?.readinessProbe?.httpGet?.path).toBe('/readyz');
    }
  });

  test('when rendered, then no Secret is created and every secret reaches a pod from an existing Secret', () => {
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const secretNames = /(URL|KEY|SECRET|PASSWORD|TOKEN)$/;
    for (const o of workloads) {
      for (const c of podSpec(o).containers) {
        for (const e of (c.env ?? []).filter((e) => secretNames.test(e.name) && e.name !== 'AUTH_JWKS_URL')) {
          expect({ name: e.name, fromSecret: Boolean(e.valueFrom?.secretKeyRef) }).toEqual({
            name: e.name,
            fromSecret: true,
          });
        }
      }
    }
    for (const cm of objects.filter((o) => o.kind === 'ConfigMap') as (K8sObject & {
      data: Record<string, string>;
    })[]) {
      expect(
        Object.keys(cm.data).filter((k) =>
          /DATABASE|AMQP|REDIS_URL|SMTP_URL|ACCESS_KEY|SECRET|PRIVATE/.test(k),
        ),
      ).toEqual([]);
    }
  });

  test('when ServiceAccounts are rendered, then none mounts an API token', () => {
    for (const sa of objects.filter((o) => o.kind === 'ServiceAccount'))
      expect(sa.automountServiceAccountToken).toBe(false);
  });
});

describe('environment contract', () => {
  const objects = render();
  const config = (name: string) =>
    (find(objects, 'ConfigMap', `readiness-${name}`) as K8sObject & { data: Record<string, string> }).data;
  const env = (name: string) =>
    podSpec(find(objects, 'Deployment', `readiness-${name}`)).containers[0]?.env ?? [];

  test('when the gateway starts, then it knows every service it routes to and serves the web app', () => {
    expect(config('gateway')).toMatchObject({
      PORT: '8080',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      AUTH_URL: 'http://readiness-auth:8080',
      NOTIFICATION_URL: 'http://readiness-notification:8080',
      RESULTS_URL: 'http://readiness-results:8080',
      AUTH_JWKS_URL: 'http://readiness-auth:8080/.well-known/jwks.json',
      PUBLIC_ORIGIN: 'https://readiness.example.edu',
      CORS_ORIGINS: 'https://readiness.example.edu',
      WEB_DIST_DIR: '/app/web/dist',
    });
  });

  test('when auth starts, then its database, broker, Redis, signing key and event secrets key come from existing Secrets', () => {
    expect(env('auth').map((e) => [e.name, e.valueFrom?.secretKeyRef?.name])).toEqual([
      ['AMQP_URL', 'readiness-rabbitmq'],
      ['DATABASE_URL', 'readiness-auth-database'],
      ['EVENT_SECRETS_KEY', 'readiness-event-secrets'],
      ['JWT_PREVIOUS_PUBLIC_KEYS', 'readiness-auth-jwt'],
      ['JWT_PRIVATE_KEY', 'readiness-auth-jwt'],
      ['REDIS_URL', 'readiness-redis'],
    ]);
  });

  test('when a setting changes, then the checksum on the pod template changes so pods roll', () => {
    const before = find(objects, 'Deployment', 'readiness-auth') as K8sObject & {
      spec: { template: { metadata: { annotations: Record<string, string> } } };
    };
    const afterObjects = render({ set: ['services.auth.logLevel=debug'] });
    const after = find(afterObjects, 'Deployment', 'readiness-auth') as typeof before;
    const untouched = find(afterObjects, 'Deployment', 'readiness-gateway') as typeof before;
    const sum = (d: typeof before) => d.spec.template.metadata.annotations['checksum/config'];
    expect(sum(before)).toMatch(/^[a-f0-9]{64}$/);
    expect(sum(after)).not.toBe(sum(before));
    expect(sum(untouched)).toBe(sum(find(objects, 'Deployment', 'readiness-gateway') as typeof before));
  });

  test('when migrations run, then they are pre-install/pre-upgrade hooks running the service migrate script', () => {
    const job = find(objects, 'Job', 'readiness-auth-migrate');
    expect(job.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade' });
    const [c] = podSpec(job).containers;
    expect(c?.command).toEqual(['node', 'services/auth/dist/main.js', 'migrate']);
    expect(c?.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
      name: 'readiness-auth-database',
      key: 'url',
    });
  });

  test('when helm test runs, then its pod calls the gateway readiness and API docs', () => {
    const pod = find(objects, 'Pod', 'readiness-test-gateway');
    expect(pod.metadata.annotations?.['helm.sh/hook']).toBe('test');
    const [c] = podSpec(pod).containers;
    expect(c?.command?.join(' ')).toContain('http://readiness-gateway:8080');
    expect(c?.command?.slice(-2)).toEqual(['/readyz', '/api/docs']);
  });
});

describe('network policies', () => {
  const objects = render({ valuesFile: 'values-production.yaml' });
  const policy = (name: string) => find(objects, 'NetworkPolicy', name) as Policy;
  const egressPorts = (p: Policy) =>
    (p.spec.egress ?? []).flatMap((r) => (r.ports ?? []).map((x) => `${x.protocol}/${x.port}`)).sort();

  test('when installed, then every pod of the release starts from deny-all in and out', () => {
    const deny = policy('readiness-default-deny');
    expect(deny.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(deny.spec.ingress).toBeUndefined();
    expect(deny.spec.egress).toBeUndefined();
    expect(deny.spec.podSelector.matchLabels).toEqual({
      'app.kubernetes.io/instance': 'readiness',
      'app.kubernetes.io/part-of': 'readiness',
    });
  });

  test('when traffic comes from outside, then only the gateway takes it, from the ingress controller', () => {
    const gateway = policy('readiness-gateway');
    expect(JSON.stringify(gateway.spec.ingress)).toContain('ingress-nginx');
    for (const name of upstreamNames) {
      expect(JSON.stringify(policy(`readiness-${name}`).spec.ingress)).not.toContain('ingress-nginx');
    }
  });

  test('when auth is called, then only the gateway and the services that check admin tokens (and the metrics scraper) may call it', () => {
    const from = policy('readiness-auth').spec.ingress ?? [];
    expect(from[0]?.from).toEqual(
      ['assessment', 'gateway', 'integrations', 'notification', 'report', 'results', 'student'].map(
        (service) => ({
          podSelector: {
            matchLabels: { 'app.kubernetes.io/instance': 'readiness', 'readiness.io/service': service },
          },
        }),
      ),
    );
    expect(JSON.stringify(from.slice(1))).toContain('monitoring');
  });

  test('when each service sends traffic, then it reaches only DNS and the dependencies it uses', () => {
    // One rule per upstream service.
    expect(egressPorts(policy('readiness-gateway'))).toEqual([
      'TCP/53',
      'TCP/6379',
      ...upstreamNames.map(() => 'TCP/8080'),
      'UDP/53',
    ]);
    // The registered LMSs over HTTPS (their key sets), and auth (8080) for its admin check.
    expect(egressPorts(policy('readiness-integrations'))).toEqual([
      'TCP/443',
      'TCP/53',
      'TCP/5432',
      'TCP/5672',
      'TCP/6379',
      'TCP/8080',
      'UDP/53',
    ]);
    // Its certificates live in S3; its Chromium loads nothing, so it reaches nothing else.
    expect(egressPorts(policy('readiness-report'))).toEqual([
      'TCP/53',
      'TCP/5432',
      'TCP/5672',
      'TCP/6379',
      'TCP/8080',
      'TCP/9000',
      'UDP/53',
    ]);
    // Its question files live in S3 (9000 in the default values).
    expect(egressPorts(policy('readiness-assessment'))).toEqual([
      'TCP/53',
      'TCP/5432',
      'TCP/5672',
      'TCP/6379',
      'TCP/8080',
      'TCP/9000',
      'UDP/53',
    ]);
    expect(egressPorts(policy('readiness-auth'))).toEqual([
      'TCP/53',
      'TCP/5432',
      'TCP/5672',
      'TCP/6379',
      'UDP/53',
    ]);
    // Object storage (9000) for the certificate PDFs it attaches.
    expect(egressPorts(policy('readiness-notification'))).toEqual([
      'TCP/53',
      'TCP/5432',
      'TCP/5672',
      'TCP/587',
      'TCP/6379',
      'TCP/8080',
      'TCP/9000',
      'UDP/53',
    ]);
  });

  test('when auth uses the institution’s identity provider, then it may reach it over HTTPS, only where the values say', () => {
    const withProvider = render({
      valuesFile: 'values-production.yaml',
      set: [
        'services.auth.uses.identityProvider=true',
        'dependencies.identityProvider.networkPolicy.to[0].ipBlock.cidr=203.0.113.0/24',
      ],
    });
    const auth = find(withProvider, 'NetworkPolicy', 'readiness-auth') as Policy;
    const https = (auth.spec.egress ?? []).find((r) => r.ports?.some((p) => p.port === 443));
    expect(https?.to).toEqual([{ ipBlock: { cidr: '203.0.113.0/24' } }]);
    // Nobody else, and not auth by default.
    expect(egressPorts(policy('readiness-auth'))).not.toContain('TCP/443');
    for (const name of ['gateway', 'student', 'results', 'notification', 'report', 'assessment']) {
      expect(egressPorts(find(withProvider, 'NetworkPolicy', `readiness-${name}`) as Policy)).not.toContain(
        'TCP/443',
      );
    }
  });

  test('when the values name the LMSs’ address ranges, then integrations reaches them over HTTPS and nobody else does', () => {
    const withLms = render({
      valuesFile: 'values-production.yaml',
      set: ['dependencies.lmsPlatforms.networkPolicy.to[0].ipBlock.cidr=198.51.100.0/24'],
    });
    const integrations = find(withLms, 'NetworkPolicy', 'readiness-integrations') as Policy;
    const https = (integrations.spec.egress ?? []).filter((r) => r.ports?.some((p) => p.port === 443));
    expect(https.map((r) => r.to)).toEqual([[{ ipBlock: { cidr: '198.51.100.0/24' } }]]);
    for (const row of topology.filter((r) => r.name !== 'integrations')) {
      expect(egressPorts(find(withLms, 'NetworkPolicy', `readiness-${row.name}`) as Policy)).not.toContain(
        'TCP/443',
      );
    }
  });

  test('when production values name where dependencies live, then egress is narrowed to them', () => {
    const pg = (policy('readiness-auth').spec.egress ?? []).find((r) =>
      r.ports?.some((p) => p.port === 5432),
    );
    expect(pg?.to).toEqual([{ ipBlock: { cidr: '10.20.0.0/16' } }]);
  });

  test('when the Ingress is rendered, then it sends everything to the gateway, which serves the web app and /api', () => {
    const ingress = find(objects, 'Ingress', 'readiness-gateway') as K8sObject & {
      spec: {
        rules: {
          host: string;
          http: { paths: { path: string; backend: { service: { name: string } } }[] };
        }[];
        tls: unknown[];
      };
    };
    expect(ingress.spec.rules[0]?.host).toBe('readiness.example.edu');
    expect(ingress.spec.rules[0]?.http.paths).toEqual([
      expect.objectContaining({
        path: '/',
        backend: { service: { name: 'readiness-gateway', port: { name: 'http' } } },
      }),
    ]);
    expect(ingress.spec.tls).toHaveLength(1);
  });
});
