import { topology } from '@readiness/contracts';
import { serviceNameOf, tracingEnabled } from '@readiness/kit/telemetry';
import { containerEnv, find, render, type K8sObject } from './helm';

interface Policy extends K8sObject {
  spec: { egress?: Array<{ ports?: Array<{ protocol: string; port: number }>; to?: unknown[] }> };
}

const serviceNames = topology.map((s) => s.name);
const COLLECTOR = 'http://otel-collector.observability:4318';
const ON = [`tracing.otlpEndpoint=${COLLECTOR}`];

const collectorRule = (objects: K8sObject[], service: string) =>
  ((find(objects, 'NetworkPolicy', `readiness-${service}`) as Policy).spec.egress ?? []).find((r) =>
    r.ports?.some((p) => p.port === 4318),
  );

describe('traces in the chart (tracing.*)', () => {
  test('when no collector is given (the default), then no service starts the SDK and none may reach a collector', () => {
    const objects = render({ valuesFile: 'values-production.yaml' });
    for (const service of serviceNames) {
      const env = containerEnv(objects, service);
      expect(Object.keys(env).filter((k) => k.startsWith('OTEL_'))).toEqual([]);
      expect(tracingEnabled(env)).toBe(false);
      expect(collectorRule(objects, service)).toBeUndefined();
    }
  });

  test('when a collector is given, then every service exports its spans there under its own name, sampled as set', () => {
    const objects = render({
      valuesFile: 'values-production.yaml',
      set: [...ON, 'tracing.sampleRatio=0.25'],
    });
    for (const service of serviceNames) {
      const env = containerEnv(objects, service);
      expect(env).toMatchObject({
        OTEL_EXPORTER_OTLP_ENDPOINT: COLLECTOR,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      });
      // What the kit's telemetry module reads from that environment.
      expect(tracingEnabled(env)).toBe(true);
      expect(serviceNameOf(env, '/app/services/x/dist/main.js')).toBe(service);
    }
  });

  test('when a collector is given, then every service may reach its port, only where the values say', () => {
    const objects = render({
      valuesFile: 'values-production.yaml',
      set: [
        ...ON,
        'tracing.networkPolicy.to[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=observability',
      ],
    });
    for (const service of serviceNames) {
      expect(collectorRule(objects, service)?.to).toEqual([
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } } },
      ]);
    }
  });

  test('when the endpoint or the ratio makes no sense, then helm refuses the values', () => {
    expect(() => render({ set: ['tracing.otlpEndpoint=otel-collector:4318'] })).toThrow(/otlpEndpoint/);
    // A path would be doubled: the exporter appends /v1/traces itself.
    expect(() => render({ set: [`tracing.otlpEndpoint=${COLLECTOR}/v1/traces`] })).toThrow(/otlpEndpoint/);
    expect(() => render({ set: [...ON, 'tracing.sampleRatio=2'] })).toThrow(/sampleRatio/);
  });
});
