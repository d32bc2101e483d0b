/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/*
 * Builds the app for production and reads Vite's manifest to prove what a student downloads:
 * the entry and the student screen with their static imports, and no admin code. The same build
 * shows that nothing the gateway would serve hands out the source.
 */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const webDir = path.resolve(__dirname, '../..');
const adminSource = /^src\/features\/(auth|admins|layout|dashboard|students|assessments|results)\//;
// Texts that only admin screens carry (route titles excepted: the router keeps those in the entry);
// if any reaches a student's browser, admin code came with it.
const adminOnlyTexts = [
  'Admin Portal',
  'Add Admin',
  'Reset Password',
  'Regular Admin',
  'Failed to load admins',
  'Sign In',
];

let outDir: string;
let manifest: Manifest;

beforeAll(() => {
  outDir = mkdtempSync(path.join(tmpdir(), 'web-build-'));
  execFileSync(
    process.execPath,
    [
      path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'),
      'build',
      '--outDir',
      outDir,
      '--logLevel',
      'error',
    ],
    {
      cwd: webDir,
      stdio: 'pipe',
      // jest sets NODE_ENV=test, which would make Vite build React's development bundle.
      env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
  manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}, 180_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The manifest keys a page needs before it can run: the chunk and everything it imports statically. */
function staticClosure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  keys.forEach(visit);
  return seen;
}

const entryKey = () => Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
const code = (keys: Iterable<string>) =>
  [...keys].map((k) => readFileSync(path.join(outDir, manifest[k]!.file), 'utf8')).join('\n');

describe.each([
  ['welcome page', 'src/features/student-flow/components/welcome-page.tsx'],
  ['completion page', 'src/features/student-flow/components/complete-page.tsx'],
])('Production build, student %s', (_name, studentKey) => {
  it('when the student page loads, then it is its own lazy chunk and pulls in no admin module', () => {
    expect(manifest[studentKey]?.isDynamicEntry).toBe(true);
    const loaded = staticClosure([entryKey(), studentKey]);
    const adminChunks = [...loaded].filter((k) => adminSource.test(manifest[k]!.src ?? k));
    expect(adminChunks).toEqual([]);
  });

  it('when the student page loads, then none of the downloaded code carries admin screen text', () => {
    const downloaded = code(staticClosure([entryKey(), studentKey]));
    expect(adminOnlyTexts.filter((text) => downloaded.includes(text))).toEqual([]);
  });
});

describe('Production build, admin screens', () => {
  it('when the admin screens are built, then they carry the texts the student check looks for', () => {
    const adminCode = code(Object.keys(manifest).filter((k) => adminSource.test(k)));
    expect(adminOnlyTexts.filter((text) => !adminCode.includes(text))).toEqual([]);
  });
});

describe('Production build, source maps', () => {
  it('when the app is built for production, then it contains no source map and no file points to one', () => {
    const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' });
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    const pointing = files.filter(
      (file) =>
        /\.(js|css|html)$/.test(file) &&
        readFileSync(path.join(outDir, file), 'utf8').includes('sourceMappingURL'),
    );
    expect(pointing).toEqual([]);
  });
});
