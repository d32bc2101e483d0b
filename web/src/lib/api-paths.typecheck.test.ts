import path from 'node:path';
import ts from 'typescript';

/*
 * The web's calls name their operation by the generated schema's key (`api-request.ts`, `api-fetch.ts`): a path no
 * service declares must not compile. This compiles a small file of calls with the web's own settings: each line marked
 * `@ts-expect-error` must be an error (TypeScript reports a mark with no error under it), and the same lines unmarked
 * must each give a diagnostic, the misspelled paths' naming the path. Were the helpers to take any string, the marks
 * would be unused and this test would fail.
 */

const LIB = __dirname;
const FIXTURE = path.join(LIB, 'api-paths.typecheck-fixture.ts');

const CASES = `
import { api } from './api';
import { request } from './api-request';
import { openEventStream, typedFetch, uploadWithProgress } from './api-fetch';

export const fixtureApi = api.injectEndpoints({
  endpoints: (build) => ({
    declared: build.query<unknown, string>({
      query: (id) => request('/api/admin/results/{id}', 'get', { path: { id } }),
    }),
    misspelled: build.query<unknown, string>({
      // @ts-expect-error misspelled
      query: (id) => request('/api/admin/resuls/{id}', 'get', { path: { id } }),
    }),
    undeclaredMethod: build.mutation<unknown, void>({
      // @ts-expect-error method
      query: () => request('/api/admin/results', 'put'),
    }),
    missingParameter: build.mutation<unknown, void>({
      // @ts-expect-error parameter
      query: () => request('/api/admin/results/{id}', 'delete'),
    }),
    wrongBody: build.mutation<unknown, void>({
      // @ts-expect-error body
      query: () => request('/api/auth/login', 'post', { body: { email: 'a@b.example' } }),
    }),
  }),
});

export const sends = () => [
  typedFetch('/api/student/{token}/language', 'put', { path: { token: 't' }, body: { language: 'fr' } }),
  // @ts-expect-error misspelled
  typedFetch('/api/student/{token}/languages', 'put', { path: { token: 't' }, body: { language: 'fr' } }),
  openEventStream('/api/student/{token}/events', { path: { token: 't' } }),
  // @ts-expect-error misspelled
  openEventStream('/api/student/{token}/event', { path: { token: 't' } }),
  uploadWithProgress('/api/assessment/upload-file', 'post', { form: new FormData(), onProgress: () => undefined }),
  // @ts-expect-error misspelled
  uploadWithProgress('/api/assessment/upload-files', 'post', { form: new FormData(), onProgress: () => undefined }),
];
`;

const MISSPELLED = [
  '/api/admin/resuls/{id}',
  '/api/student/{token}/languages',
  '/api/student/{token}/event',
  '/api/assessment/upload-files',
];

const settings = (() => {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(LIB, '../../tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('web/tsconfig.json could not be read');
  return { ...config.options, noEmit: true, incremental: false };
})();

/** The diagnostics of the fixture `text`, compiled with the web's settings, each with its line (0-based). */
function diagnose(text: string): { line: number; message: string }[] {
  const host = ts.createCompilerHost(settings);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (path.resolve(file) === FIXTURE ? text : read(file));
  host.fileExists = (file) => path.resolve(file) === FIXTURE || exists(file);
  host.getSourceFile = (file, language, ...rest) =>
    path.resolve(file) === FIXTURE
      ? ts.createSourceFile(file, text, language, true)
      : getSourceFile(file, language, ...rest);
  const program = ts.createProgram({ rootNames: [FIXTURE], options: settings, host });
  const source = program.getSourceFile(FIXTURE);
  if (!source) throw new Error('The fixture was not compiled');
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => ({
    line: source.getLineAndCharacterOfPosition(d.start ?? 0).line,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

const lines = CASES.split('\n');
const marked = lines.flatMap((line, index) => (line.includes('@ts-expect-error') ? [index + 1] : []));

describe('the typed client', () => {
  it('compiles the declared calls, and every marked call is an error', () => {
    expect(marked).toHaveLength(7);
    expect(diagnose(CASES)).toEqual([]);
  }, 180_000);

  it('reports each marked call unmarked, naming the misspelled path', () => {
    // Each mark becomes a blank comment, so the lines stay where they were.
    const unmarked = lines.map((line) => line.replace('@ts-expect-error', 'unmarked')).join('\n');
    const found = diagnose(unmarked);
    for (const line of marked) expect(found.some((d) => d.line === line)).toBe(true);
    expect(found.every((d) => marked.includes(d.line))).toBe(true);
    for (const misspelled of MISSPELLED) {
      expect(found.some((d) => d.message.includes(`"${misspelled}"`))).toBe(true);
    }
  }, 180_000);
});
