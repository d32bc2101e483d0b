'use strict';
/**
 * Where a process's CPU went: the functions with the most self time in a `.cpuprofile` (from `--cpu-prof`, e.g.
 * `BENCH_PROFILE_DIR=/tmp/prof node bench/peak.js`), and the same time summed by package or project folder.
 * Usage: node bench/profile-top.js <file.cpuprofile> [rows]
 */
const fs = require('node:fs');

const out = (line = '') => process.stdout.write(`${line}\n`);

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-top.js <file.cpuprofile> [rows]');
const rows = Number(rowsArg ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const intervals = profile.timeDeltas;
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (intervals[i] ?? 0)));
// Time spent waiting is not CPU: it is left out of the shares.
for (const [id] of self) if (byId.get(id).callFrame.functionName === '(idle)') self.delete(id);
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url, name) => {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  const p = /\/(services\/[^/]+|packages\/[^/]+|proto)\//.exec(url);
  return p ? p[1] : url.startsWith('node:') ? 'node' : url;
};
const byFunction = new Map();
const byPlace = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const key = `${f.functionName || '(anonymous)'} ${where(f.url, f.functionName)}:${f.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const place = where(f.url, f.functionName);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
out(`${(total / 1e6).toFixed(1)} s of CPU sampled`);
for (const [k, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 15)) out(`${pct(us)}  ${k}`);
out('');
for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, rows)) out(`${pct(us)}  ${k}`);
