import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrationsFolder } from './migrations-cli';

describe('migrationsFolder: the .sql folder a service declares beside its module', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'migrations-folder-'));
  const src = path.join(root, 'services/thing/src/data-access/migrations');
  const dist = path.join(root, 'services/thing/dist/data-access/migrations');
  mkdirSync(src, { recursive: true });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('when declared from the sources, then it is that folder', () => {
    expect(migrationsFolder(src)).toBe(src);
  });

  test('when declared from dist and the build did not copy it, then the same folder under src is used', () => {
    expect(migrationsFolder(dist)).toBe(src);
  });

  test('when the build copied it into dist, then the copy is used', () => {
    mkdirSync(dist, { recursive: true });
    expect(migrationsFolder(dist)).toBe(dist);
  });
});
