/**
 * @jest-environment node
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import ts from 'typescript';

/*
 * Reads the production build that exists (`make build` wrote web/dist; this test builds nothing) and proves what a
 * student downloads (STYLE §12): the student entry (student.html) and everything it can load, read through its own
 * manifest: no admin text, under 150 KB of gzipped JavaScript in English; and, module by module, no admin module
 * among the sources the student entry can import (the build has no source maps to name the modules of its chunks,
 * so the student entry's import graph is read from the sources; what Vite bundles is part of it). The other
 * languages' catalogues (issue 27) are chunks of their own, loaded only by a page in that language. The build also
 * shows that nothing the gateway would serve hands out the source.
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

const prodDir = path.join(webDir, 'dist');

beforeAll(() => {
  if (!existsSync(path.join(prodDir, '.vite', 'student-manifest.json')))
    throw new Error(`${prodDir} holds no production build of the web app: run \`make build\` first`);
});

/**
 * The source modules of the app an entry can import, statically or on demand, as paths under web/ (`src/…`):
 * relative imports only (packages are not the app's modules), type-only imports left out as the compiler
 * erases them.
 */
function importGraph(entry: string): string[] {
  const seen = new Set<string>();
  const resolve = (from: string, specifier: string): string | undefined => {
    const base = path.resolve(path.dirname(from), specifier);
    return [
      base,
      `${base}.ts`,
      `${base}.tsx`,
      path.join(base, 'index.ts'),
      path.join(base, 'index.tsx'),
    ].find((file) => /\.tsx?$/.test(file) && existsSync(file));
  };
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const specifiers: string[] = [];
    const walk = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        const typeOnly =
          clause?.isTypeOnly ||
          (clause &&
            !clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly));
        if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
      } else if (
        ts.isExportDeclaration(node) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        if (!node.isTypeOnly) specifiers.push(node.moduleSpecifier.text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0])
      ) {
        specifiers.push(node.arguments[0].text);
      }
      ts.forEachChild(node, walk);
    };
    walk(source);
    for (const specifier of specifiers.filter((s) => s.startsWith('.'))) {
      const next = resolve(file, specifier);
      if (next) visit(next);
    }
  };
  visit(path.join(webDir, entry));
  return [...seen].map((file) => path.relative(webDir, file).split(path.sep).join('/'));
}

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

  it('when the student code is read module by module, then no admin module is in it', () => {
    const page = readFileSync(path.join(webDir, 'student.html'), 'utf8');
    const entry = /<script type="module" src="\/([^"]+)"/.exec(page)![1]!;
    const modules = importGraph(entry);
    // The check means something only if the graph holds the student's own modules and every module the build
    // made a chunk of.
    expect(modules).toContain('src/features/student-flow/components/test-screen.tsx');
    const chunked = Object.values(readManifest(prodDir, 'student-manifest.json'))
      .filter((chunk) => chunk.file.endsWith('.js') && chunk.src?.startsWith('src/'))
      .map((chunk) => chunk.src);
    expect(chunked.length).toBeGreaterThan(0);
    expect(chunked.filter((src) => !modules.includes(src!))).toEqual([]);
    expect(modules.filter((module) => adminModule.test(module))).toEqual([]);
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

describe('Production build, compressed copies', () => {
  it('when the app is built, then every script, style and page above 1 KB has a Brotli and a gzip copy of it beside it', () => {
    const files = readdirSync(prodDir, { recursive: true, encoding: 'utf8' }).filter(
      (file) => !file.startsWith('.vite'),
    );
    const served = files.filter(
      (file) => /\.(js|css|html)$/.test(file) && readFileSync(path.join(prodDir, file)).length >= 1024,
    );
    expect(served.length).toBeGreaterThan(10);
    const missing = served.filter((file) => !files.includes(`${file}.br`) || !files.includes(`${file}.gz`));
    expect(missing).toEqual([]);
    // Each copy unpacks to the file it stands for (compared as bytes: a deep equality of big buffers is slow).
    const stale = served.filter((file) => {
      const original = readFileSync(path.join(prodDir, file));
      return (
        !brotliDecompressSync(readFileSync(path.join(prodDir, `${file}.br`))).equals(original) ||
        !gunzipSync(readFileSync(path.join(prodDir, `${file}.gz`))).equals(original)
      );
    });
    expect(stale).toEqual([]);
  });

  it('when the pages are built, then each holds a loading shell in its root for the seconds its scripts take', () => {
    for (const page of ['index.html', 'student.html']) {
      const html = readFileSync(path.join(prodDir, page), 'utf8');
      expect(html).toMatch(/<div id="root">\s*<div class="boot" role="status" aria-label="Loading">/);
      expect(html).toMatch(/<style>[^<]*\.boot-spinner\s*\{/);
    }
  });
});
