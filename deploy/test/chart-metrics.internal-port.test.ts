import { find, render, type K8sObject } from './helm';

type Port = { name?: string; containerPort?: number; port?: number | string; targetPort?: string };
type Deployment = K8sObject & {
  spec: {
    template: {
      metadata: { annotations?: Record<string, string> };
      spec: {
        containers: {
          ports: Port[];
          startupProbe: { httpGet: { path: string; port: string } };
          livenessProbe: { httpGet: { path: string; port: string } };
          readinessProbe: { httpGet: { path: string; port: string } };
        }[];
      };
    };
  };
};
type Rule = { from?: unknown[]; ports?: { port: number }[] };

const SERVICES = ['gateway', 'auth', 'notification'];
const config = (objects: K8sObject[], name: string) =>
  (find(objects, 'ConfigMap', `readiness-${name}`) as K8sObject & { data: Record<string, string> }).data;

describe('chart: operational endpoints on the internal port', () => {
  const objects = render({ valuesFile: 'values-production.yaml' });

  test.each(SERVICES)(
    'when %s runs, then Prometheus is pointed at the internal port and the probes at the plain http ones',
    (name) => {
      const deployment = find(objects, 'Deployment', `readiness-${name}`) as Deployment;
      expect(deployment.spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9464',
        'prometheus.io/path': '/metrics',
      });
      const [container] = deployment.spec.template.spec.containers;
      expect(container?.ports).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'metrics', containerPort: 9464 })]),
      );
      expect(container?.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container?.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(config(objects, name).INTERNAL_PORT).toBe('9464');
    },
  );

  test('when the ingress routes, then it reaches only the gateway http port', () => {
    const ingress = find(objects, 'Ingress', 'readiness-gateway') as K8sObject & {
      spec: { rules: { http: { paths: { backend: { service: { port: { name: string } } } }[] } }[] };
    };
    const ports = ingress.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service.port.name));
    expect(ports).toEqual(['http']);
  });

  test.each(SERVICES)(
    'when traffic reaches %s, then only the metrics scrapers may use the internal port, and only it',
    (name) => {
      const policy = find(objects, 'NetworkPolicy', `readiness-${name}`) as K8sObject & {
        spec: { ingress: Rule[] };
      };
      const scraperRules = policy.spec.ingress.filter((r) => JSON.stringify(r.from).includes('prometheus'));
      expect(scraperRules.flatMap((r) => r.ports?.map((p) => p.port))).toEqual([9464]);
      const otherPorts = policy.spec.ingress
        .filter((r) => !scraperRules.includes(r))
        .flatMap((r) => r.ports?.map((p) => p.port));
      expect(otherPorts).not.toContain(9464);
    },
  );

  test('when the Prometheus Operator is installed and ServiceMonitors are enabled, then each scrapes the metrics port', () => {
    const withOperator = render({
      valuesFile: 'values-production.yaml',
      apiVersions: ['monitoring.coreos.com/v1'],
      set: ['metrics.serviceMonitor.enabled=true'],
    });
    for (const name of SERVICES) {
      const monitor = find(withOperator, 'ServiceMonitor', `readiness-${name}`) as K8sObject & {
        spec: { endpoints: { port: string; path: string }[] };
      };
      expect(monitor.spec.endpoints).toEqual([
        expect.objectContaining({ port: 'metrics', path: '/metrics' }),
      ]);
      const service = find(withOperator, 'Service', `readiness-${name}`) as K8sObject & {
        spec: { ports: Port[] };
      };
      expect(service.spec.ports).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'metrics', targetPort: 'metrics' })]),
      );
    }
  });
});

describe('chart: trusted proxies', () => {
  test('when rendered with the defaults, then the gateway trusts the ingress controller and each service the gateway', () => {
    const objects = render();
    for (const name of SERVICES) expect(config(objects, name).TRUSTED_PROXIES).toBe('1');
  });

  test('when ingress.trustedProxies names the controller pods, then only the gateway gets it', () => {
    const objects = render({ set: ['ingress.trustedProxies=10.42.0.0/16'] });
    expect(config(objects, 'gateway').TRUSTED_PROXIES).toBe('10.42.0.0/16');
    expect(config(objects, 'auth').TRUSTED_PROXIES).toBe('1');
  });

  test('when trustedProxies is not a hop count or an address list, then the chart refuses the values', () => {
    expect(() => render({ set: ['ingress.trustedProxies=everyone'] })).toThrow(/trustedProxies/);
  });
});
