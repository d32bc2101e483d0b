// Writes charts/readiness/values.schema.json. The schema is long and repetitive as JSON (every object
// closed with additionalProperties: false); written as code it stays short and reviewable.
// Run: node deploy/tools/values-schema.mjs        (writes)
//      node deploy/tools/values-schema.mjs --check (exits 1 when the committed file differs)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const closed = (properties, required = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = (minimum = 0) => ({ type: 'integer', minimum });
const strList = { type: 'array', items: str };
const stringMap = { type: 'object', additionalProperties: str };
const quantity = {
  oneOf: [
    { type: 'string', pattern: '^[0-9.]+([mkMGTPE]i?|[eE][0-9]+)?$' },
    { type: 'number', minimum: 0 },
  ],
};
const sizeLimit = { type: 'string', pattern: '^$|^[0-9]+(Ki|Mi|Gi)$' };
const serviceName = { type: 'string', pattern: '^[a-z][a-z0-9-]{0,30}$' };
const secretRef = closed(
  { existingSecret: { type: 'string', minLength: 1 }, key: { type: 'string', minLength: 1 }, optional: bool },
  ['existingSecret', 'key'],
);
const port = { type: 'integer', minimum: 1, maximum: 65535 };
/** TRUSTED_PROXIES: a hop count, or comma-separated addresses and CIDR ranges; "" = nobody. */
const trustedProxies = {
  type: 'string',
  pattern: '^$|^[0-9]{1,2}$|^[0-9a-fA-F.:/]+(\\s*,\\s*[0-9a-fA-F.:/]+)*$',
};

const labelSelector = closed({
  matchLabels: stringMap,
  matchExpressions: {
    type: 'array',
    items: closed(
      { key: str, operator: { enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] }, values: strList },
      ['key', 'operator'],
    ),
  },
});
const networkPolicyPeer = closed({
  ipBlock: closed({ cidr: str, except: strList }, ['cidr']),
  namespaceSelector: labelSelector,
  podSelector: labelSelector,
});
const peers = { type: 'array', items: { $ref: '#/definitions/networkPolicyPeer' } };
const resources = closed({
  requests: closed({ cpu: quantity, memory: quantity, 'ephemeral-storage': quantity }),
  limits: closed({ cpu: quantity, memory: quantity, 'ephemeral-storage': quantity }),
});
const probe = closed({
  initialDelaySeconds: int(),
  periodSeconds: int(1),
  failureThreshold: int(1),
  successThreshold: int(1),
  timeoutSeconds: int(1),
});
const toleration = closed({
  key: str,
  operator: { enum: ['Exists', 'Equal'] },
  value: str,
  effect: { enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] },
  tolerationSeconds: int(),
});

// Every key optional: a service entry only says what differs from serviceDefaults.
const service = closed({
  enabled: bool,
  image: closed({
    repository: str,
    tag: str,
    digest: { type: 'string', pattern: '^$|^sha256:[a-f0-9]{64}$' },
    pullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'] },
  }),
  role: { enum: ['http', 'consumer'] },
  replicas: int(1),
  logLevel: { enum: ['', 'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
  uses: closed({
    postgres: bool,
    rabbitmq: bool,
    redis: bool,
    smtp: bool,
    s3: bool,
    identityProvider: bool,
    lmsPlatforms: bool,
  }),
  database: closed({ existingSecret: str, key: str, networkPolicyTo: peers }),
  migrations: closed({ enabled: bool, activeDeadlineSeconds: int(30), backoffLimit: int() }),
  env: {
    type: 'object',
    propertyNames: { pattern: '^[A-Z][A-Z0-9_]*$' },
    additionalProperties: { type: ['string', 'number', 'boolean'] },
  },
  secretEnv: {
    type: 'object',
    propertyNames: { pattern: '^[A-Z][A-Z0-9_]*$' },
    additionalProperties: { $ref: '#/definitions/secretRef' },
  },
  calls: { type: 'array', items: serviceName, uniqueItems: true },
  resources: { $ref: '#/definitions/resources' },
  tmpSizeLimit: sizeLimit,
  shmSizeLimit: sizeLimit,
  shutdownGraceSeconds: { ...int(0), maximum: 600 },
  trustedProxies: { $ref: '#/definitions/trustedProxies' },
  probes: closed({
    startup: { $ref: '#/definitions/probe' },
    liveness: { $ref: '#/definitions/probe' },
    readiness: { $ref: '#/definitions/probe' },
  }),
  podDisruptionBudget: closed({
    enabled: bool,
    maxUnavailable: { oneOf: [int(1), { type: 'string', pattern: '^[0-9]+%$' }] },
  }),
  autoscaling: closed({
    enabled: bool,
    minReplicas: int(1),
    maxReplicas: int(1),
    targetCPUUtilizationPercentage: { type: 'integer', minimum: 1, maximum: 100 },
  }),
  keda: closed({
    enabled: bool,
    minReplicas: int(0),
    maxReplicas: int(1),
    pollingInterval: int(1),
    cooldownPeriod: int(0),
    queueLength: int(1),
    queues: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
  }),
  podAnnotations: stringMap,
  nodeSelector: stringMap,
  tolerations: { type: 'array', items: toleration },
});

const dependency = (extra = {}) => closed({ port, networkPolicy: closed({ to: peers }), ...extra });
const secretDependency = dependency({
  existingSecret: { type: 'string', minLength: 1 },
  key: { type: 'string', minLength: 1 },
});

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Readiness chart values',
  definitions: { service, secretRef, networkPolicyPeer, labelSelector, resources, probe, trustedProxies },
  ...closed(
    {
      global: closed({
        publicOrigin: { type: 'string', pattern: '^https?://[^/]+$' },
        corsOrigins: { type: 'array', items: { type: 'string', pattern: '^https?://[^/]+$' } },
        logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
        imageRegistry: str,
        imagePullSecrets: strList,
      }),
      serviceDefaults: { $ref: '#/definitions/service' },
      services: {
        type: 'object',
        propertyNames: serviceName,
        additionalProperties: { $ref: '#/definitions/service' },
      },
      dependencies: closed({
        postgres: dependency(),
        rabbitmq: secretDependency,
        redis: secretDependency,
        smtp: secretDependency,
        identityProvider: dependency(),
        lmsPlatforms: dependency(),
        s3: dependency({
          endpoint: { type: 'string', pattern: '^https?://' },
          bucket: { type: 'string', minLength: 3 },
          region: str,
          existingSecret: { type: 'string', minLength: 1 },
          accessKeyKey: { type: 'string', minLength: 1 },
          secretKeyKey: { type: 'string', minLength: 1 },
        }),
      }),
      tracing: closed({
        // An OTLP/HTTP base URL without a path of its own ("" = off): the exporter appends /v1/traces.
        otlpEndpoint: { type: 'string', pattern: '^$|^https?://[^/?#]+/?$' },
        // A number, or the string `helm --set` makes of a decimal (it converts only integers).
        sampleRatio: {
          oneOf: [
            { type: 'number', minimum: 0, maximum: 1 },
            { type: 'string', pattern: '^(0(\\.[0-9]+)?|1(\\.0+)?)$' },
          ],
        },
        networkPolicy: closed({ port, to: peers }),
      }),
      auth: closed({
        jwksPath: { type: 'string', pattern: '^/' },
        sessionMaxHours: { type: 'number', exclusiveMinimum: 0, maximum: 720 },
        allowPassword: { type: 'boolean' },
      }),
      podSecurityContext: closed({
        runAsNonRoot: { const: true },
        runAsUser: int(1),
        runAsGroup: int(1),
        fsGroup: int(1),
        seccompProfile: closed({ type: { enum: ['RuntimeDefault', 'Localhost'] }, localhostProfile: str }, [
          'type',
        ]),
      }),
      containerSecurityContext: closed({
        runAsNonRoot: { const: true },
        runAsUser: int(1),
        runAsGroup: int(1),
        readOnlyRootFilesystem: bool,
        allowPrivilegeEscalation: { const: false },
        capabilities: closed({ drop: { type: 'array', contains: { const: 'ALL' } }, add: strList }),
        seccompProfile: closed({ type: { enum: ['RuntimeDefault', 'Localhost'] }, localhostProfile: str }, [
          'type',
        ]),
      }),
      ingress: closed({
        enabled: bool,
        className: str,
        host: str,
        annotations: stringMap,
        trustedProxies: { $ref: '#/definitions/trustedProxies' },
        tls: closed({ enabled: bool, secretName: str }),
      }),
      metrics: closed({
        // Not the http port: the ingress and the callers' network policy rules use that one.
        port: { type: 'integer', minimum: 1024, maximum: 65535, not: { const: 8080 } },
        podAnnotations: bool,
        serviceMonitor: closed({
          enabled: bool,
          interval: { type: 'string', pattern: '^[0-9]+(s|m)$' },
          labels: stringMap,
        }),
        alerts: closed({
          enabled: bool,
          labels: stringMap,
          runbookUrl: { type: 'string', minLength: 1 },
          errorRatio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
          studentP99Seconds: { type: 'number', exclusiveMinimum: 0 },
          outboxAgeSeconds: { type: 'integer', minimum: 1 },
          queueDepth: { type: 'integer', minimum: 1 },
          certificateBacklogSeconds: { type: 'integer', minimum: 1 },
          // The deadline job runs every 10 s: less than a few passes would page on a slow one.
          deadlineJobStaleSeconds: { type: 'integer', minimum: 30 },
          // The waiting room's first student in line waiting longer than this (with the line growing) alerts.
          waitingRoomLongestWaitSeconds: { type: 'integer', minimum: 1 },
        }),
        dashboard: closed({ enabled: bool, labels: stringMap }),
      }),
      networkPolicy: closed({
        enabled: bool,
        ingressController: closed({
          namespaceSelector: { $ref: '#/definitions/labelSelector' },
          podSelector: { $ref: '#/definitions/labelSelector' },
        }),
        metricsScrapers: peers,
        dns: closed({
          namespaceSelector: { $ref: '#/definitions/labelSelector' },
          podSelector: { $ref: '#/definitions/labelSelector' },
        }),
      }),
      tests: closed({ paths: { type: 'array', items: { type: 'string', pattern: '^/' } } }),
    },
    ['global', 'serviceDefaults', 'services', 'dependencies'],
  ),
};

const target = fileURLToPath(new URL('../../charts/readiness/values.schema.json', import.meta.url));
// Formatted like every other file, so `prettier --check` and `--check` here agree.
const text = await prettier.format(JSON.stringify(schema), {
  ...(await prettier.resolveConfig(target)),
  parser: 'json',
});
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    console.error(`${target} is stale: run node deploy/tools/values-schema.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
}
