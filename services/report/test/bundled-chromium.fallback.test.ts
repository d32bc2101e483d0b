import { mkdtempSync, rmSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '@readiness/kit/logger';
import { chooseBrowser } from '../src/rendering/browser-choice';
import { bundledChromiumPackage } from '../src/rendering/bundled-chromium';
import { createRenderer } from '../src/rendering/renderer';
import { loadFontFaces } from '../src/domain/templates/fonts';
import { pdfText } from './harness';

jest.setTimeout(180_000);

const logger = createLogger({ name: 'bundled-test', level: 'silent' });
const linuxX64 = process.platform === 'linux' && process.arch === 'x64';

(linuxX64 ? describe : describe.skip)('the Chromium of @sparticuz/chromium', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'report-chromium-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('when no system browser exists, then the bundled one is unpacked privately, checked and renders with the product fonts', async () => {
    const base = path.join(dir, 'chromium');
    const choice = await chooseBrowser({ systemBrowsers: [], bundled: true, bundledDir: base, logger });
    const { version } = bundledChromiumPackage()!;
    expect(choice).toMatchObject({
      source: '@sparticuz/chromium',
      executablePath: path.join(base, version, 'chromium'),
    });
    expect(choice.version).toContain(` ${version.split('.')[0]}.`);
    expect(choice.args).not.toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--(single-process|disable-web-security|allow-running-insecure-content)/),
      ]),
    );
    expect(choice.env?.FONTCONFIG_PATH).toBe(path.join(base, version, 'fonts'));

    const renderer = createRenderer({
      choose: async () => choice,
      fontFaces: loadFontFaces(),
      poolSize: 2,
      timeoutMs: 20_000,
      logger,
    });
    try {
      await renderer.start();
      expect(renderer.status()).toMatchObject({ available: true, source: '@sparticuz/chromium' });
      expect(pdfText(await renderer.render('<p>Rendered by the bundled browser</p>'))).toContain(
        'Rendered by the bundled browser',
      );
    } finally {
      await renderer.close();
    }
  });

  it('when the unpacked binary was replaced, then it is unpacked again rather than run', async () => {
    const base = path.join(dir, 'planted');
    const { version } = bundledChromiumPackage()!;
    mkdirSync(path.join(base, version), { recursive: true, mode: 0o700 });
    chmodSync(base, 0o700);
    const planted = path.join(base, version, 'chromium');
    writeFileSync(planted, '#!/bin/sh\necho "Chromium 1.0 planted"\n', { mode: 0o700 });
    writeFileSync(path.join(base, version, '.complete'), 'planted');
    const choice = await chooseBrowser({ systemBrowsers: [], bundled: true, bundledDir: base, logger });
    expect(choice.version).toContain(` ${version.split('.')[0]}.`);
  });

  it('when the folder is writable by others, then the bundled browser is refused', async () => {
    const base = path.join(dir, 'shared');
    mkdirSync(base, { mode: 0o777 });
    chmodSync(base, 0o777);
    await expect(
      chooseBrowser({ systemBrowsers: [], bundled: true, bundledDir: base, logger }),
    ).rejects.toThrow('is not a private folder of this user');
  });
});
