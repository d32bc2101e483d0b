// Where the proof's CPU goes, by lane and by kind of process (docs/testing.md, "Where the time goes"). Linux only.
//
//   node tests/tools/cpu-by-lane.mjs record samples.jsonl [seconds]   every process's CPU every 3 s (or as given),
//                                                                        until stopped (Ctrl-C, kill)
//   node tests/tools/cpu-by-lane.mjs report samples.jsonl [from] [to]  CPU-seconds by lane and kind between two Unix
//                                                                        times (the whole recording without them)
//
// A process counts for the lane whose jest started it (TEST_LANE in its environment), for the images or the lint run
// beside the tests by .ci/run, or for none (PostgreSQL, RabbitMQ, containers: servers no lane
// owns). A process that lives less than one interval is missed: the report also says how busy the machine was, from
// /proc/stat, so what was missed shows as the difference.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';

const TICKS = 100;
const say = (line) => process.stdout.write(`${line}\n`);

function read(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** A process's parent and CPU ticks (user + system), from /proc/<pid>/stat; its name may hold spaces and brackets. */
function stat(pid) {
  const line = read(`/proc/${pid}/stat`);
  if (line === null) return null;
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return { parent: fields[1], ticks: Number(fields[11]) + Number(fields[12]), started: fields[19] };
}

const commandLine = (pid) => (read(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ');

/**
 * The lane that started the process: TEST_LANE, which run-lanes.mjs gives each lane's jest, in the environment of the
 * process or of its nearest ancestor that kept it (a service started with an environment of its own has not), or what
 * .ci/run runs beside the tests, found on an ancestor's command line.
 */
function laneOf(pid) {
  for (let at = pid, depth = 0; at && at !== '0' && depth < 40; depth++) {
    const lane = /(?:^|\0)TEST_LANE=([^\0]+)/.exec(read(`/proc/${at}/environ`) ?? '')?.[1];
    if (lane) return lane;
    const command = commandLine(at);
    if (/make images|tools\/images\.mjs/.test(command)) return 'images';
    if (/make lint/.test(command)) return 'lint';
    at = stat(at)?.parent;
  }
  return 'none';
}

/** What kind of process it is: Chromium by its --type, node by what it runs, the servers by name. */
function kindOf(pid) {
  const command = commandLine(pid);
  const name = (read(`/proc/${pid}/comm`) ?? '').trim();
  if (/chrom/.test(command) || /chrom/.test(name))
    return `chromium:${/--type=([a-z-]+)/.exec(command)?.[1] ?? 'browser'}`;
  if (name === 'postgres') return 'postgres';
  if (/beam|erl_child|epmd/.test(name)) return 'rabbitmq';
  if (/redis/.test(name)) return 'redis';
  if (/podman|buildah|conmon|runc|crun|netavark|aardvark|pasta|mmdebstrap|dpkg|apt/.test(name))
    return 'containers';
  if (/^node|npm/.test(name) || /^node /.test(command)) {
    if (/jest-worker|processChild/.test(command)) return 'node:jest worker';
    if (/bin\/jest/.test(command)) return 'node:jest';
    if (/tsc|eslint|prettier|vite/.test(command)) return 'node:build and lint';
    if (/dist\/|all-in-one/.test(command)) return 'node:product';
    return 'node:other';
  }
  return 'other';
}

function record(out, seconds) {
  const known = new Map();
  const sample = () => {
    const now = new Map();
    const cpu = {};
    for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
      const current = stat(pid);
      if (!current) continue;
      let seen = known.get(pid);
      if (!seen || seen.started !== current.started) {
        seen = { started: current.started, ticks: 0, key: `${laneOf(pid)}|${kindOf(pid)}` };
      }
      now.set(pid, { ...seen, ticks: current.ticks });
      const spent = current.ticks - seen.ticks;
      if (spent > 0) cpu[seen.key] = (cpu[seen.key] ?? 0) + spent / TICKS;
    }
    const machine = (read('/proc/stat') ?? '').split('\n')[0].split(/\s+/).slice(1).map(Number);
    appendFileSync(
      out,
      `${JSON.stringify({ at: Math.round(Date.now() / 1000), machine, cpu, first: known.size === 0 })}\n`,
    );
    known.clear();
    for (const [pid, seen] of now) known.set(pid, seen);
  };
  sample();
  setInterval(sample, seconds * 1000);
}

function report(file, from = 0, to = Infinity) {
  const samples = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((s) => !s.first && s.at >= from && s.at <= to);
  if (samples.length < 2) throw new Error(`fewer than two samples in ${file} between ${from} and ${to}`);
  const lanes = {};
  // Each sample holds the CPU spent since the one before it: the first one's is from before the span.
  for (const sample of samples.slice(1)) {
    for (const [key, seconds] of Object.entries(sample.cpu)) {
      const [lane, kind] = key.split('|');
      lanes[lane] ??= {};
      lanes[lane][kind] = (lanes[lane][kind] ?? 0) + seconds;
    }
  }
  const [first, last] = [samples[0].machine, samples.at(-1).machine];
  const spent = last.map((value, i) => value - first[i]);
  const all = spent.reduce((a, b) => a + b, 0);
  const idle = spent[3] + spent[4];
  const sum = (kinds) => Object.values(kinds).reduce((a, b) => a + b, 0);
  say(
    `${samples.at(-1).at - samples[0].at} s; the machine ${((100 * (all - idle)) / all).toFixed(1)} % busy ` +
      `(${((all - idle) / TICKS).toFixed(0)} CPU-seconds, ${Object.values(lanes)
        .map(sum)
        .reduce((a, b) => a + b, 0)
        .toFixed(0)} sampled)`,
  );
  for (const [lane, kinds] of Object.entries(lanes).sort((a, b) => sum(b[1]) - sum(a[1]))) {
    const parts = Object.entries(kinds)
      .sort((a, b) => b[1] - a[1])
      .filter(([, seconds]) => seconds >= 1)
      .map(([kind, seconds]) => `${kind} ${seconds.toFixed(0)}`);
    say(`  ${lane.padEnd(11)} ${sum(kinds).toFixed(0).padStart(5)}: ${parts.join(', ')}`);
  }
}

const [verb, file, ...rest] = process.argv.slice(2);
if (verb === 'record' && file) record(file, Number(rest[0] ?? 3));
else if (verb === 'report' && file) report(file, Number(rest[0] ?? 0), Number(rest[1] ?? Infinity));
else {
  console.error(
    'usage: cpu-by-lane.mjs record <samples.jsonl> [seconds] | report <samples.jsonl> [from] [to]',
  );
  process.exit(2);
}
