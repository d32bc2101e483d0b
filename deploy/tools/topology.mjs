// Writes what cannot read the topology table (proto/src/topology.ts) itself, from it:
//   skaffold.yaml                        its artifacts and their setValueTemplates
//   deploy/Dockerfile                    one COPY of each workspace's manifest
//   .dockerignore                        each workspace's manifest, each service's build and runtime assets
//   charts/readiness/topology.yaml       the services, what each uses and the queues each consumes, for the templates
//   deploy/dev-dependencies/postgresql.yaml          a role and a database per service with one (`skaffold dev`)
//   tsconfig.json, deploy/all-in-one/tsconfig.json   a project reference per service
//   deploy/all-in-one/src/service-modules.ts         every service module by name (`<name>Service` of @readiness/<name>)
//   docs/events.md                       between its markers: each event's publisher and its consumers' queues
// Run: node deploy/tools/topology.mjs          (writes; `make topology`)
//      node deploy/tools/topology.mjs --check  (exits 1 naming the files that differ)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const ts = require('typescript');

/** The table, read from its TypeScript (it imports only the consumer table and types). */
export function loadTopology() {
  const loaded = {};
  const load = (file) => {
    if (loaded[file]) return loaded[file].exports;
    const source = readFileSync(path.join(root, 'proto/src', `${file}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    const module = (loaded[file] = { exports: {} });
    new Function('exports', 'require', 'module', outputText)(
      module.exports,
      (id) => load(id.replace(/^\.\//, '')),
      module,
    );
    return module.exports;
  };
  const { topology, queuesOf } = load('topology');
  const { consumerQueues } = load('consumers');
  // Each row with the queues it consumes (`<service>.<handler>`) and the events bound to each.
  return topology.map((s) => ({
    ...s,
    consumes: consumerQueues.filter((q) => queuesOf(s.name).includes(q.queue)),
  }));
}

const upstreams = (services) => services.filter((s) => s.name !== 'gateway').map((s) => s.name);
const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const GENERATED = 'from proto/src/topology.ts by deploy/tools/topology.mjs (`make topology`)';

/** Replaces the lines between the line matching `from` and the next line matching `to`, both kept. */
function between(text, from, to, lines, file) {
  const all = text.split('\n');
  const start = all.findIndex((l) => from.test(l));
  const end = all.findIndex((l, i) => i > start && to.test(l));
  if (start < 0 || end < 0) throw new Error(`${file}: no region between ${from} and ${to}`);
  return [...all.slice(0, start + 1), ...lines, ...all.slice(end)].join('\n');
}

function skaffold(services, text) {
  const artifacts = [`    # Written ${GENERATED}.`];
  for (const s of services) {
    artifacts.push(
      `    - image: readiness-${s.name}`,
      '      context: .',
      '      docker:',
      '        dockerfile: deploy/Dockerfile',
      '        buildArgs:',
      `          SERVICE: ${s.name}`,
    );
    if (s.chromium)
      artifacts.push(
        "          # Debian's Chromium for the PDFs.",
        '          RUNTIME_BASE: runtime-chromium',
      );
  }
  const values = [`          # Written ${GENERATED}.`];
  for (const s of services) {
    const key = `readiness_${s.name.replace(/-/g, '_')}`;
    values.push(
      `          services.${s.name}.image.repository: '{{.IMAGE_REPO_${key}}}'`,
      `          services.${s.name}.image.tag: '{{.IMAGE_TAG_${key}}}@{{.IMAGE_DIGEST_${key}}}'`,
    );
  }
  const withArtifacts = between(text, /^ {2}artifacts:$/, /^deploy:$/, artifacts, 'skaffold.yaml');
  return between(withArtifacts, /^ {8}setValueTemplates:$/, /^ {8}wait: true$/, values, 'skaffold.yaml');
}

/** The dev cluster's PostgreSQL: a role and a database of its own for each service the table gives one. */
function devPostgres(services, text) {
  const head = text.slice(0, text.indexOf('      databases.sql: |\n') + '      databases.sql: |\n'.length);
  if (!head.endsWith('|\n')) throw new Error('deploy/dev-dependencies/postgresql.yaml: no databases.sql');
  const rows = services.filter((s) => s.uses.postgres);
  const width =
    Math.max(...rows.map((s) => `CREATE ROLE ${s.name} LOGIN PASSWORD 'dev-${s.name}';`.length)) + 1;
  const lines = rows.map(
    (s) =>
      `        ${`CREATE ROLE ${s.name} LOGIN PASSWORD 'dev-${s.name}';`.padEnd(width)}CREATE DATABASE ${s.name} OWNER ${s.name};`,
  );
  return `${head}${lines.join('\n')}\n`;
}

/** Every workspace of package.json, each folder with a manifest. */
function workspaces() {
  const { workspaces: patterns } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return patterns
    .flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(path.join(root, pattern.slice(0, -2)), { withFileTypes: true })
            .filter(
              (d) =>
                d.isDirectory() && existsSync(path.join(root, pattern.slice(0, -2), d.name, 'package.json')),
            )
            .map((d) => `${pattern.slice(0, -2)}/${d.name}`)
        : [pattern],
    )
    .sort();
}

function dockerfile(text) {
  const copies = workspaces().map((w) => `COPY ${w}/package.json ${w}/`);
  return between(text, /^COPY package\.json package-lock\.json \.\/$/, /^$/, copies, 'deploy/Dockerfile');
}

/**
 * .dockerignore's spelt-out paths: every workspace's manifest, and of each service its compiled code and the runtime
 * assets it reads from its sources' folders (SQL migrations, stylesheets). The shared packages' lines stay as written.
 */
function dockerignore(text) {
  const manifests = ['!package.json', '!package-lock.json', ...workspaces().map((w) => `!${w}/package.json`)];
  const assets = ['src/data-access/migrations', 'src/domain/templates/styles'];
  const services = workspaces().filter((w) => w.startsWith('services/'));
  const built = services.flatMap((w) => [
    `!${w}/dist`,
    ...assets.filter((a) => existsSync(path.join(root, w, a))).map((a) => `!${w}/${a}`),
  ]);
  const withManifests = between(text, /^# Every workspace's manifest/, /^$/, manifests, '.dockerignore');
  return between(
    withManifests,
    /^!proto\/dist$/,
    /^# The web app, for the gateway\.$/,
    built,
    '.dockerignore',
  );
}

function chartTopology(services) {
  const lines = [
    `# Written ${GENERATED}: read by the templates (KEDA queues, alert rules, the gateway's upstreams).`,
  ];
  lines.push('services:');
  for (const s of services) {
    lines.push(`  ${s.name}:`);
    lines.push(
      `    uses: { ${Object.entries(s.uses)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')} }`,
    );
    lines.push(s.consumes.length ? '    queues:' : '    queues: []');
    for (const { queue } of s.consumes) lines.push(`      - ${queue}`);
    // The gateway reaches every other service of the table (its upstreams, each at its `<NAME>_URL`).
    if (s.name === 'gateway') lines.push(`    calls: [${upstreams(services).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

const reference = (p) => ({ path: p });
function rootTsconfig(services) {
  const refs = ['packages/dev-servers', 'packages/kit', 'proto', 'packages/testing']
    .concat(
      services.map((s) => `services/${s.name}`),
      ['deploy/all-in-one'],
    )
    .map(reference);
  return `${JSON.stringify({ files: [], references: refs }, null, 2)}\n`;
}

function launcherTsconfig(services, text) {
  const config = JSON.parse(text);
  config.references = ['packages/kit', 'packages/dev-servers', 'proto', 'packages/testing']
    .concat(services.map((s) => `services/${s.name}`))
    .map((p) => reference(`../../${p}`));
  return `${JSON.stringify(config, null, 2)}\n`;
}

function serviceModules(services) {
  const sorted = [...services].sort((a, b) => a.name.localeCompare(b.name));
  return [
    `// Written ${GENERATED}: do not edit.`,
    ...sorted.map((s) => `import { ${camel(s.name)}Service } from '@readiness/${s.name}';`),
    '',
    '/** Every service module of the topology table, by its name (the package `@readiness/<name>` exports `<name>Service`). */',
    'export const serviceModules = {',
    ...services.map((s) => `  ${/-/.test(s.name) ? `'${s.name}'` : s.name}: ${camel(s.name)}Service,`),
    '} as const;',
    '',
  ].join('\n');
}

const EVENTS_FROM = /^<!-- topology:events -->$/;
const EVENTS_TO = /^<!-- \/topology:events -->$/;

/** docs/events.md's table of who publishes each event and which queues consume it, between its markers. */
function eventsDoc(services, text) {
  const publishers = new Map();
  const consumers = new Map();
  for (const s of services) {
    for (const event of s.publishes) publishers.set(event, [...(publishers.get(event) ?? []), s.name]);
    for (const { queue, events, onDemand } of s.consumes)
      for (const event of events) {
        const taken = `${s.name} (\`${queue}\`${onDemand ? ', bound on demand' : ''})`;
        consumers.set(event, [...(consumers.get(event) ?? []), taken]);
      }
  }
  const events = [...new Set([...publishers.keys(), ...consumers.keys()])];
  const rows = events.map(
    (event) =>
      `| \`${event}\` | ${(publishers.get(event) ?? ['–']).join(', ')} | ${(consumers.get(event) ?? ['–']).join(', ')} |`,
  );
  return between(
    text,
    EVENTS_FROM,
    EVENTS_TO,
    [
      `<!-- Written ${GENERATED}: do not edit. -->`,
      '',
      '| event | published by | consumed by (queue) |',
      '|---|---|---|',
      ...rows,
      '',
    ],
    'docs/events.md',
  );
}

/** Formatted as `prettier --check` wants it, where prettier formats that kind of file. */
async function formatted(file, content) {
  const filepath = path.join(root, file);
  const { ignored, inferredParser } = await prettier.getFileInfo(filepath, {
    ignorePath: path.join(root, '.prettierignore'),
  });
  if (ignored || !inferredParser) return content;
  return prettier.format(content, { ...(await prettier.resolveConfig(filepath)), filepath });
}

/** Each generated file: its path and its content from the table (given the file as it is). */
export async function generatedFiles(services = loadTopology()) {
  const read = (file) => readFileSync(path.join(root, file), 'utf8');
  const files = {
    'skaffold.yaml': skaffold(services, read('skaffold.yaml')),
    'deploy/Dockerfile': dockerfile(read('deploy/Dockerfile')),
    '.dockerignore': dockerignore(read('.dockerignore')),
    'charts/readiness/topology.yaml': chartTopology(services),
    'deploy/dev-dependencies/postgresql.yaml': devPostgres(
      services,
      read('deploy/dev-dependencies/postgresql.yaml'),
    ),
    'tsconfig.json': rootTsconfig(services),
    'deploy/all-in-one/tsconfig.json': launcherTsconfig(services, read('deploy/all-in-one/tsconfig.json')),
    'deploy/all-in-one/src/service-modules.ts': serviceModules(services),
    'docs/events.md': eventsDoc(services, read('docs/events.md')),
  };
  for (const [file, content] of Object.entries(files)) files[file] = await formatted(file, content);
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await generatedFiles();
  const check = process.argv.includes('--check');
  const stale = Object.entries(files).filter(([file, content]) => {
    const full = path.join(root, file);
    return !existsSync(full) || readFileSync(full, 'utf8') !== content;
  });
  if (check) {
    if (stale.length) {
      console.error(`stale, run \`make topology\`: ${stale.map(([file]) => file).join(', ')}`);
      process.exit(1);
    }
  } else {
    for (const [file, content] of stale) writeFileSync(path.join(root, file), content);
    process.stdout.write(
      `${stale.length ? `wrote ${stale.map(([file]) => file).join(', ')}` : 'up to date'}\n`,
    );
  }
}
