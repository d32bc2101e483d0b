'use strict';
/**
 * A RabbitMQ node of the bench's own, configured as the development cluster's broker is (docs/operations.md, "The
 * broker"): the management plugin's statistics collector and message rates off, the Prometheus plugin on, quorum
 * queues reporting every 30 s. The machine's shared broker runs the defaults: a collector that polls every queue and
 * channel every 5 s and per-message rates on every channel, work the deployed broker does not do, which was counted in
 * the peak's RabbitMQ CPU (and, for the product's idle queues, in its bare journey's). A running broker cannot be given
 * those settings without a restart, and the shared one is not restarted for a bench, so the bench starts its own
 * (Debian's binaries, a temporary folder, free ports), as it does for PostgreSQL (database-split.js).
 *
 * With the collector off the management API has no message counts: they come from the Prometheus plugin's node-wide
 * counters (`brokerCounts`, bench/lib.js), which count only the bench's traffic on a node of its own, as one run's
 * vhost is busy at a time (the peak, then its bare journey); dead letters are read from the queues over AMQP
 * (`deadLetterCount`).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { freePort, descendants } = require('./lib');

const RABBIT_BIN = process.env.BENCH_RABBITMQ_BIN ?? '/usr/lib/rabbitmq/bin';

/** Whether this machine has the binaries `startOwnBroker` needs. */
const canRunOwnBroker = () => fs.existsSync(path.join(RABBIT_BIN, 'rabbitmq-server'));

/** Whether a run takes a node of its own: where it can, unless BENCH_OWN_RABBITMQ=0 asks for the machine's broker. */
const wantsOwnBroker = () => process.env.BENCH_OWN_RABBITMQ !== '0' && canRunOwnBroker();

/**
 * What the node is told besides its ports: the development cluster's broker settings, read from its values
 * (`extraConfiguration`, lines of rabbitmq.conf, and `advancedConfiguration`, an advanced.config, in
 * deploy/dev-dependencies/rabbitmq.yaml), so the bench measures the broker as it is deployed.
 */
function brokerValues() {
  const { parse } = require('yaml');
  const values = parse(
    fs.readFileSync(path.join(__dirname, '..', 'deploy/dev-dependencies/rabbitmq.yaml'), 'utf8'),
  );
  const settings = Object.fromEntries(
    String(values.extraConfiguration ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split(/\s*=\s*/, 2)),
  );
  // The node's environment (`extraEnvVars`), e.g. the runtime's flags; the bench's own environment may override them.
  const environment = Object.fromEntries(
    (values.extraEnvVars ?? []).map(({ name, value }) => [name, process.env[name] ?? String(value)]),
  );
  return {
    settings,
    advanced: values.advancedConfiguration ? String(values.advancedConfiguration) : undefined,
    environment,
  };
}

async function until(what, timeoutMs, check) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`the bench's own RabbitMQ: ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const portOpen = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts the node and waits until it takes connections and its management API answers. Answers its AMQP and
 * management URLs, its Prometheus endpoint, the pid its processes descend from, `vhost(name)` (a vhost with the
 * guest user's permissions, `{ url, vhost, close }` as `createTestVhost` answers) and `stop()`.
 */
async function startOwnBroker() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rabbitmq-'));
  const [amqp, management, prometheus, dist] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const nodeName = `bench${process.pid}@localhost`;
  const { settings, advanced, environment } = brokerValues();
  const conf = [
    `listeners.tcp.default = 127.0.0.1:${amqp}`,
    `management.tcp.ip = 127.0.0.1`,
    `management.tcp.port = ${management}`,
    `prometheus.tcp.ip = 127.0.0.1`,
    `prometheus.tcp.port = ${prometheus}`,
    ...Object.entries(settings).map(([k, v]) => `${k} = ${v}`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'rabbitmq.conf'), conf);
  if (advanced) fs.writeFileSync(path.join(dir, 'advanced.config'), `${advanced.trim()}\n`);
  fs.writeFileSync(path.join(dir, 'enabled_plugins'), '[rabbitmq_management,rabbitmq_prometheus].\n');
  // An empty environment file: Debian's names the shared node, which this one must not take.
  fs.writeFileSync(path.join(dir, 'rabbitmq-env.conf'), '');
  const log = path.join(dir, 'rabbitmq.out');
  const outFd = fs.openSync(log, 'a');
  const child = spawn(path.join(RABBIT_BIN, 'rabbitmq-server'), [], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', outFd, outFd],
    env: {
      ...process.env,
      ...environment,
      RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
      RABBITMQ_NODENAME: nodeName,
      RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
      RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
      RABBITMQ_ADVANCED_CONFIG_FILE: path.join(dir, 'advanced.config'),
      RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
      RABBITMQ_LOG_BASE: path.join(dir, 'log'),
      RABBITMQ_DIST_PORT: String(dist),
      ERL_EPMD_ADDRESS: '127.0.0.1',
    },
  });
  fs.closeSync(outFd);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // Synchronous, so it also runs when the bench fails and exits before its own clean-up.
  process.once('exit', stop);
  const managementUrl = `http://127.0.0.1:${management}`;
  const auth = `Basic ${Buffer.from('guest:guest').toString('base64')}`;
  const api = async (method, route, body) => {
    const res = await fetch(`${managementUrl}/api${route}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`RabbitMQ management ${method} ${route}: ${res.status}`);
    return res;
  };
  try {
    await until('AMQP port open', 90_000, () => portOpen(amqp));
    await until('management API answering', 60_000, async () => (await api('GET', '/overview')).ok);
  } catch (err) {
    const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : '';
    stop();
    throw new Error(`${err.message}\n${tail}`);
  }
  const beam = descendants(child.pid).find((pid) => commOf(pid).startsWith('beam.smp'));
  return {
    amqpUrl: `amqp://guest:guest@127.0.0.1:${amqp}`,
    managementUrl,
    prometheusUrl: `http://127.0.0.1:${prometheus}`,
    /** The node's Erlang VM: its CPU is the broker's. */
    pid: beam ?? child.pid,
    settings: {
      ...settings,
      ...(advanced ? { 'advanced.config': advanced.trim() } : {}),
      ...environment,
    },
    async vhost(name) {
      await api('PUT', `/vhosts/${encodeURIComponent(name)}`);
      await api('PUT', `/permissions/${encodeURIComponent(name)}/guest`, {
        configure: '.*',
        write: '.*',
        read: '.*',
      });
      return {
        url: `amqp://guest:guest@127.0.0.1:${amqp}/${encodeURIComponent(name)}`,
        vhost: name,
        close: async () => {
          await api('DELETE', `/vhosts/${encodeURIComponent(name)}`).catch(() => undefined);
        },
      };
    },
    /** How many queues the node keeps, in every vhost. */
    async queueCount() {
      return (await (await api('GET', '/queues')).json()).length;
    },
    stop,
  };
}

function commOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * A vhost for a run: on the bench's own node once `useOwnBroker` started it, else a test vhost on the machine's
 * broker.
 */
let own;
async function benchVhost(name) {
  if (own) return own.vhost(`${name}-${process.pid}`);
  const { createTestVhost } = require('@readiness/testing');
  return createTestVhost();
}

/** Starts the bench's own node and points `benchVhost`, `brokerCounts` and the RabbitMQ CPU at it. */
async function useOwnBroker() {
  own = await startOwnBroker();
  process.env.BENCH_RABBITMQ_PROMETHEUS_URL = own.prometheusUrl;
  process.env.BENCH_RABBITMQ_PID = String(own.pid);
  process.env.TEST_AMQP_MANAGEMENT_URL = own.managementUrl.replace('http://', 'http://guest:guest@');
  return own;
}

module.exports = { wantsOwnBroker, startOwnBroker, useOwnBroker, benchVhost };
