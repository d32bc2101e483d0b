/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/*
 * Builds the app for production and proves what a student downloads (STYLE §12): the student entry
 * (student.html) and everything it can load, read through its own manifest and, in a second build made
 * with source maps, module by module: no admin module, no admin text, under 150 KB of gzipped
 * JavaScript in English. The other languages' catalogues (issue 27) are chunks of their own, loaded only by a
 * page in that language. The production build also shows that nothing the gateway would serve hands out the
 * source.
 */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const webDir = path.resolve(__dirname, '../..');
// Admin modules outside the features: the admin entry, its store and session, and its API slice.
const adminModule =
  /(^|\/)src\/(main\.tsx|features\/(auth|admins|layout|dashboard|students|live|assessments|results)\/|app\/(app|providers|routes|store)\.tsx?$|lib\/(api|session-token|session-events)\.ts$)/;
// Texts that only admin screens carry; if any reaches a student's browser, admin code came with it.
const adminOnlyTexts = [
  'Admin Portal',
  'Add Admin',
  'Reset Password',
  'Regular Admin',
  'Failed to load admins',
  'Sign In',
  'admin_token',
];
const STUDENT_BUDGET_BYTES = 150 * 1024;
/** What one more language may add to it: its catalogue, compiled. */
const CATALOGUE_BUDGET_BYTES = 10 * 1024;
/** The catalogues of the languages other than English, by their manifest keys, with the title each gives the pages. */
const HEADINGS: Record<string, string> = {
  'src/i18n/locales/es.ts': 'Evaluación de preparación para la educación a distancia',
  'src/i18n/locales/fr.ts': 'Évaluation de la préparation à la formation à distance',
  'src/i18n/locales/pt.ts': 'Avaliação de Preparação para a Educação a Distância',
  'src/i18n/locales/ar.ts': 'تقييم الجاهزية للتعليم عن بُعد',
};
const OTHER_CATALOGUES = Object.keys(HEADINGS);

function build(outDir: string, ...flags: string[]): void {
  execFileSync(
    process.execPath,
    [
      path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'),
      'build',
      '--outDir',
      outDir,
      '--logLevel',
      'error',
      ...flags,
    ],
    {
      cwd: webDir,
      stdio: 'pipe',
      // jest sets NODE_ENV=test, which would make Vite build React's development bundle.
      env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
}

const readManifest = (outDir: string, name: string) =>
  JSON.parse(readFileSync(path.join(outDir, '.vite', name), 'utf8')) as Manifest;

/**
 * Every file the entry can load: its chunk, its static imports and the chunks it may load later, but for the
 * chunks named in `leaving` (and what only they load).
 */
function reachableFiles(manifest: Manifest, entry: string, leaving: string[] = []): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key] || leaving.includes(key)) return;
    seen.add(key);
    for (const next of [...(manifest[key].imports ?? []), ...(manifest[key].dynamicImports ?? [])])
      visit(next);
  };
  visit(entry);
  return [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

let prodDir: string;
let mappedDir: string;

beforeAll(() => {
  prodDir = mkdtempSync(path.join(tmpdir(), 'web-build-'));
  mappedDir = mkdtempSync(path.join(tmpdir(), 'web-build-maps-'));
  build(prodDir);
  build(mappedDir, '--sourcemap');
}, 240_000);

afterAll(() => {
  rmSync(prodDir, { recursive: true, force: true });
  rmSync(mappedDir, { recursive: true, force: true });
});

const gzipped = (outDir: string, files: string[]) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(outDir, file))).length, 0);

describe('Production build, student pages', () => {
  const studentFiles = (outDir: string) =>
    reachableFiles(readManifest(outDir, 'student-manifest.json'), 'student.html');
  /** What a student reading English downloads: everything but the other languages' catalogues. */
  const englishFiles = (outDir: string) =>
    reachableFiles(readManifest(outDir, 'student-manifest.json'), 'student.html', OTHER_CATALOGUES);

  it('when the student entry is built, then its page loads the student entry and not the admin one', () => {
    const html = readFileSync(path.join(prodDir, 'student.html'), 'utf8');
    const scripts = [...html.matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(studentFiles(prodDir).filter((file) => html.includes(file)));
    const adminEntry = readManifest(prodDir, 'manifest.json')['index.html']!.file;
    expect(html).not.toContain(adminEntry);
  });

  it('when the student JavaScript is read module by module, then no admin module is in it', () => {
    const sources = studentFiles(mappedDir).flatMap(
      (file) =>
        (JSON.parse(readFileSync(path.join(mappedDir, `${file}.map`), 'utf8')) as { sources: string[] })
          .sources,
    );
    // The check means something only if the maps name the student's own modules.
    expect(sources.some((s) => s.includes('features/student-flow/components/test-screen.tsx'))).toBe(true);
    expect(sources.filter((s) => adminModule.test(s.replace(/^(\.\.\/)+/, '')))).toEqual([]);
  });

  it('when the student pages load, then none of the downloaded code carries admin screen text', () => {
    const code = studentFiles(prodDir)
      .map((file) => readFileSync(path.join(prodDir, file), 'utf8'))
      .join('\n');
    expect(adminOnlyTexts.filter((text) => code.includes(text))).toEqual([]);
  });

  it('when the student JavaScript of the English pages is gzipped, then all of it is under 150 KB', () => {
    const bytes = gzipped(prodDir, englishFiles(prodDir));
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(STUDENT_BUDGET_BYTES);
  });

  it('when the student pages are built, then English comes with them and each other language is a chunk of its own, loaded only on demand', () => {
    const manifest = readManifest(prodDir, 'student-manifest.json');
    const read = (files: string[]) =>
      files.map((file) => readFileSync(path.join(prodDir, file), 'utf8')).join('\n');
    const english = read(englishFiles(prodDir));
    expect(english).toContain('Distance Education Readiness Assessment');
    for (const [key, heading] of Object.entries(HEADINGS)) {
      expect(manifest[key]).toMatchObject({ isDynamicEntry: true });
      expect(manifest['student.html']!.dynamicImports).toContain(key);
      expect(english).not.toContain(heading);
      expect(read([manifest[key]!.file])).toContain(heading);
    }
  });

  it('when a language other than English is chosen, then its catalogue adds under 10 KB gzipped, with no message compiler', () => {
    const manifest = readManifest(prodDir, 'student-manifest.json');
    const sizes = OTHER_CATALOGUES.map((key) => ({ key, bytes: gzipped(prodDir, [manifest[key]!.file]) }));
    // A catalogue of a few hundred bytes would be one that lost its messages.
    expect(sizes.filter(({ bytes }) => bytes < 1024 || bytes >= CATALOGUE_BUDGET_BYTES)).toEqual([]);
    // Compiled at build time: the pages carry Lingui's runtime, not its MessageFormat parser.
    const code = studentFiles(prodDir)
      .map((file) => readFileSync(path.join(prodDir, file), 'utf8'))
      .join('\n');
    expect(code).not.toContain('Unexpected message end');
  });
});

describe('Production build, admin screens', () => {
  it('when the admin screens are built, then they carry the texts the student check looks for', () => {
    const manifest = readManifest(prodDir, 'manifest.json');
    // Everything the admin entry's manifest lists is admin code, shared chunks included (Rollup may place a
    // module the admin entry and its screens share, such as the session token, in a chunk of its own).
    const adminCode = Object.keys(manifest)
      .map((k) => readFileSync(path.join(prodDir, manifest[k]!.file), 'utf8'))
      .join('\n');
    expect(adminOnlyTexts.filter((text) => !adminCode.includes(text))).toEqual([]);
  });
});

describe('Production build, source maps', () => {
  it('when the app is built for production, then it contains no source map and no file points to one', () => {
    const files = readdirSync(prodDir, { recursive: true, encoding: 'utf8' });
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    const pointing = files.filter(
      (file) =>
        /\.(js|css|html)$/.test(file) &&
        readFileSync(path.join(prodDir, file), 'utf8').includes('sourceMappingURL'),
    );
    expect(pointing).toEqual([]);
  });
});
