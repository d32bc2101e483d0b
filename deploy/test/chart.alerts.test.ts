import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { find, render, repoRoot, type K8sObject } from './helm';

type Rule = {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
};
type PrometheusRule = K8sObject & { spec: { groups: { name: string; rules: Rule[] }[] } };
type Dashboard = { panels: { title: string; targets: { expr: string }[] }[] };

const OPERATOR = ['monitoring.coreos.com/v1'];
const ENABLED = ['metrics.alerts.enabled=true', 'metrics.dashboard.enabled=true'];

/** Metrics that come from elsewhere than the services: Prometheus's own, and RabbitMQ's rabbitmq_prometheus plugin. */
const EXTERNAL = new Set(['up', 'rabbitmq_queue_messages_ready', 'rabbitmq_queue_messages']);
/** Node's default metrics (prom-client collectDefaultMetrics, on every service's registry). */
const NODE_DEFAULTS = new Set(['process_resident_memory_bytes']);
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'by',
  'rate',
  'increase',
  'histogram_quantile',
  'time',
  'le',
  'and',
  'or',
  'unless',
]);

/** Every source file of the services and the kit, where the metrics they export are defined. */
const sources = (() => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith('.ts') && !full.endsWith('.test.ts')) files.push(readFileSync(full, 'utf8'));
    }
  };
  walk(path.join(repoRoot, 'packages/kit/src'));
  for (const service of readdirSync(path.join(repoRoot, 'services'))) {
    const src = path.join(repoRoot, 'services', service, 'src');
    if (statSync(path.join(repoRoot, 'services', service)).isDirectory()) walk(src);
  }
  return files.join('\n');
})();

/** The metric names an expression reads: identifiers before a selector or a range, without PromQL's own words. */
function metricsOf(expr: string): string[] {
  // Label matchers and groupings name labels, not metrics.
  const withoutStrings = expr
    .replace(/"[^"]*"/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\b(by|on)\s*\([^)]*\)/g, '');
  const names = [...withoutStrings.matchAll(/\b([a-z_][a-z0-9_]*)\s*(?=\{|\[|\)|$|\s*[<>=!])/g)].map(
    (m) => m[1]!,
  );
  return [...new Set(names.filter((n) => !PROMQL_WORDS.has(n) && !/^\d/.test(n)))];
}

/** Defined in the code under its base name (a histogram's series add _bucket, _count and _sum). */
const exported = (name: string) => {
  const base = name.replace(/_(bucket|count|sum)$/, '');
  return EXTERNAL.has(name) || NODE_DEFAULTS.has(name) || sources.includes(`'${base}'`);
};

describe('chart: alerts and dashboard', () => {
  test('when rendered with the defaults, then there are no alert rules and no dashboard, even with the operator', () => {
    const objects = render({ valuesFile: 'values-production.yaml', apiVersions: OPERATOR });
    expect(objects.filter((o) => o.kind === 'PrometheusRule')).toEqual([]);
    expect(objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-dashboard'))).toEqual(
      [],
    );
  });

  test('when alerts are enabled on a cluster without the Prometheus Operator, then no PrometheusRule is rendered', () => {
    const objects = render({ set: ENABLED });
    expect(objects.filter((o) => o.kind === 'PrometheusRule')).toEqual([]);
  });

  test('when a threshold makes no sense, then helm refuses the values before anything is applied', () => {
    expect(() => render({ apiVersions: OPERATOR, set: [...ENABLED, 'metrics.alerts.errorRatio=2'] })).toThrow(
      /errorRatio/,
    );
    expect(() =>
      render({ apiVersions: OPERATOR, set: [...ENABLED, 'metrics.alerts.deadlineJobStaleSeconds=5'] }),
    ).toThrow(/deadlineJobStaleSeconds/);
  });

  const objects = render({ valuesFile: 'values-production.yaml', apiVersions: OPERATOR, set: ENABLED });
  const rule = find(objects, 'PrometheusRule', 'readiness-alerts') as PrometheusRule;
  const rules = rule.spec.groups.flatMap((g) => g.rules);
  const operations = readFileSync(path.join(repoRoot, 'docs/operations.md'), 'utf8');

  test('when alerts are enabled, then every signal the platform team watches has an alert with a severity', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual([
      'ReadinessCertificateBacklog',
      'ReadinessDeadLetters',
      'ReadinessDeadlineJobStopped',
      'ReadinessHighErrorRate',
      'ReadinessOutboxBacklog',
      'ReadinessQueueDepth',
      'ReadinessServiceDown',
      'ReadinessStudentLatencyHigh',
      'ReadinessWaitingLineGrowing',
    ]);
    for (const r of rules) expect(['critical', 'warning']).toContain(r.labels.severity);
  });

  test.each(rules.map((r) => [r.alert, r] as const))(
    'when %s fires, then its runbook is a heading of docs/operations.md',
    (name, r) => {
      const anchor = r.annotations.runbook_url?.split('#')[1];
      expect(anchor).toBe(name.toLowerCase());
      expect(operations).toMatch(new RegExp(`^#+ ${name}$`, 'm'));
    },
  );

  test.each(rules.map((r) => [r.alert, r] as const))(
    'when %s is evaluated, then every metric it reads is one the services export',
    (_, r) => {
      const names = metricsOf(r.expr);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => !exported(n))).toEqual([]);
      // Only this release's services: the job label is <release>-<service>.
      if (!names.every((n) => n.startsWith('rabbitmq_'))) expect(r.expr).toContain('job');
    },
  );

  test('when the dashboard is loaded, then it is valid JSON whose every panel reads metrics the services export', () => {
    const config = find(objects, 'ConfigMap', 'readiness-dashboard') as K8sObject & {
      metadata: { labels: Record<string, string> };
      data: Record<string, string>;
    };
    expect(config.metadata.labels.grafana_dashboard).toBe('1');
    const dashboard = JSON.parse(config.data['readiness.json']!) as Dashboard;
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(8);
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs.join(' ')).not.toContain('__RELEASE__');
    for (const expr of exprs) expect(metricsOf(expr).filter((n) => !exported(n))).toEqual([]);
    // Every alert's signal has a panel.
    for (const r of rules) expect(exprs.some((e) => metricsOf(r.expr).some((m) => e.includes(m)))).toBe(true);
  });

  test('when a metric is renamed in the code, then the check above notices (the check can fail)', () => {
    expect(exported('outbox_oldest_pending_seconds')).toBe(true);
    expect(exported('outbox_oldest_pending_secs')).toBe(false);
    expect(metricsOf('time() - max(periodic_job_last_success_timestamp_seconds{job="x"}) > 120')).toEqual([
      'periodic_job_last_success_timestamp_seconds',
    ]);
  });

  const promtool = spawnSync('promtool', ['--version']).status === 0;
  (promtool ? test : test.skip)(
    "when promtool checks the rules, then they parse (run where Debian's prometheus package is installed)",
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'rules-'));
      try {
        const file = path.join(dir, 'rules.yaml');
        writeFileSync(file, stringify({ groups: rule.spec.groups }));
        const checked = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
        expect(checked.stderr).toBe('');
        expect(checked.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
  /**
   * Series over time, in promtool's notation (`a+bxn`: n steps from a by b, one a minute), and when each alert must
   * and must not fire on them.
   */
  const SCENARIOS: Array<{
    series: Record<string, string>;
    quiet: [string, string][];
    firing: [string, string, Record<string, string>][];
  }> = [
    {
      series: {
        'periodic_job_last_success_timestamp_seconds{job="readiness-student", name="attempt-deadline"}':
          '0+60x5 300x25',
        'outbox_oldest_pending_seconds{job="readiness-auth", source="auth"}': '0x5 60+60x25',
        'certificates_oldest_pending_seconds{job="readiness-report"}': '0+60x40',
        'up{job="readiness-gateway", instance="10.0.0.1:9464"}': '1x5 0x25',
        'up{job="readiness-auth", instance="10.0.0.2:9464"}': '1x30',
        'bus_dead_lettered_total{job="readiness-results", queue="results.attempt-submitted", event="e", reason="poison"}':
          '0x5 1x25',
        'http_request_duration_seconds_count{job="readiness-student", method="POST", route="r", status="500"}':
          '0+1x30',
        'http_request_duration_seconds_count{job="readiness-student", method="POST", route="r", status="200"}':
          '0+10x30',
        'http_request_duration_seconds_count{job="readiness-auth", method="GET", route="r", status="200"}':
          '0+10x30',
        'http_request_duration_seconds_bucket{job="readiness-gateway", route="proxy:student", method="GET", status="200", le="1"}':
          '0x30',
        'http_request_duration_seconds_bucket{job="readiness-gateway", route="proxy:student", method="GET", status="200", le="2.5"}':
          '0+10x30',
        'http_request_duration_seconds_bucket{job="readiness-gateway", route="proxy:student", method="GET", status="200", le="+Inf"}':
          '0+10x30',
        'rabbitmq_queue_messages_ready{queue="notification.certificate-issued", vhost="/"}': '2000x30',
        'rabbitmq_queue_messages_ready{queue="notification.certificate-issued.dlq", vhost="/"}': '5000x30',
        // Paused while students wait: full by design, no alert.
        'rabbitmq_queue_messages_ready{queue="report.result-recorded", vhost="/"}': '2000x30',
        'bus_consumers_yielding{job="readiness-report", queue="report.result-recorded"}': '1x30',
        // Two replicas report the same line; it grows from minute 6, its first student past 5 minutes from minute 11.
        'student_waiting_room_waiting{job="readiness-student", instance="10.0.0.3:9464"}': '0x5 100+100x25',
        'student_waiting_room_waiting{job="readiness-student", instance="10.0.0.4:9464"}': '0x5 100+100x25',
        'student_waiting_room_longest_wait_seconds{job="readiness-student", instance="10.0.0.3:9464"}':
          '0x5 60+60x25',
        'student_waiting_room_longest_wait_seconds{job="readiness-student", instance="10.0.0.4:9464"}':
          '0x5 60+60x25',
      },
      // Nothing fires before its condition has held for its `for`.
      quiet: [
        ['4m', 'ReadinessDeadlineJobStopped'],
        ['5m', 'ReadinessOutboxBacklog'],
        ['15m', 'ReadinessCertificateBacklog'],
        ['5m', 'ReadinessServiceDown'],
        ['4m', 'ReadinessDeadLetters'],
        ['3m', 'ReadinessHighErrorRate'],
        ['5m', 'ReadinessStudentLatencyHigh'],
        ['5m', 'ReadinessQueueDepth'],
        ['15m', 'ReadinessWaitingLineGrowing'],
      ],
      firing: [
        ['15m', 'ReadinessDeadlineJobStopped', {}],
        ['20m', 'ReadinessOutboxBacklog', { job: 'readiness-auth' }],
        ['30m', 'ReadinessCertificateBacklog', {}],
        ['10m', 'ReadinessServiceDown', { job: 'readiness-gateway', instance: '10.0.0.1:9464' }],
        [
          '10m',
          'ReadinessDeadLetters',
          { job: 'readiness-results', queue: 'results.attempt-submitted', reason: 'poison' },
        ],
        ['15m', 'ReadinessHighErrorRate', { job: 'readiness-student' }],
        ['20m', 'ReadinessStudentLatencyHigh', {}],
        ['15m', 'ReadinessQueueDepth', { queue: 'notification.certificate-issued' }],
        ['16m', 'ReadinessWaitingLineGrowing', {}],
      ],
    },
    {
      // A long line that the admission keeps from growing: its students wait, but nothing is getting worse.
      series: {
        'student_waiting_room_waiting{job="readiness-student", instance="10.0.0.3:9464"}':
          '3000x10 3000-50x20',
        'student_waiting_room_longest_wait_seconds{job="readiness-student", instance="10.0.0.3:9464"}':
          '600x30',
      },
      quiet: [['30m', 'ReadinessWaitingLineGrowing']],
      firing: [],
    },
    {
      // Retries piling up in a wait every handler shares, most of them past their wait and not deliverable (none
      // ready): as full a queue as a handler's own.
      series: {
        'rabbitmq_queue_messages{queue="readiness.events.retry-120000ms", vhost="/"}': '2000x30',
        'rabbitmq_queue_messages_ready{queue="readiness.events.retry-120000ms", vhost="/"}': '0x30',
      },
      quiet: [['5m', 'ReadinessQueueDepth']],
      firing: [['15m', 'ReadinessQueueDepth', { queue: 'readiness.events.retry-120000ms' }]],
    },
  ];

  (promtool ? test : test.skip)(
    'when promtool replays a stuck job, a backlog, a dead replica, errors, slowness, a full queue and a growing line, then each alert fires after its delay and not before',
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'rules-'));
      try {
        writeFileSync(path.join(dir, 'rules.yaml'), stringify({ groups: rule.spec.groups }));
        const byName = new Map(rules.map((r) => [r.alert, r]));
        const expand = (text: string, labels: Record<string, string>) =>
          text.replace(/\{\{ \$labels\.(\w+) \}\}/g, (_, l: string) => labels[l] ?? '');
        const tests = SCENARIOS.map((s) => ({
          interval: '1m',
          input_series: Object.entries(s.series).map(([series, values]) => ({ series, values })),
          alert_rule_test: [
            ...s.quiet.map(([at, alertname]) => ({ eval_time: at, alertname, exp_alerts: [] })),
            ...s.firing.map(([at, alertname, labels]) => {
              const r = byName.get(alertname)!;
              return {
                eval_time: at,
                alertname,
                exp_alerts: [
                  {
                    exp_labels: { ...labels, severity: r.labels.severity },
                    exp_annotations: Object.fromEntries(
                      Object.entries(r.annotations).map(([k, v]) => [k, expand(v, labels)]),
                    ),
                  },
                ],
              };
            }),
          ],
        }));
        // Every alert is replayed both ways.
        expect(new Set(SCENARIOS.flatMap((s) => s.firing.map((f) => f[1])))).toEqual(new Set(byName.keys()));
        writeFileSync(
          path.join(dir, 'tests.yaml'),
          stringify({ rule_files: ['rules.yaml'], evaluation_interval: '1m', tests }),
        );
        const replayed = spawnSync('promtool', ['test', 'rules', 'tests.yaml'], {
          cwd: dir,
          encoding: 'utf8',
        });
        expect(replayed.stdout + replayed.stderr).toContain('SUCCESS');
        expect(replayed.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
