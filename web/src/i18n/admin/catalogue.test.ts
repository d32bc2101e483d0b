import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import en from './en';
import { adminT } from './admin-i18n';

/*
 * The admin app's catalogue (issue 27, item 5): every message is valid ICU, every id lives in the file its prefix
 * names, and every id is used by the app's code, so the catalogue is exactly what the screens say. (An id the code
 * asks for that the catalogue lacks does not compile: ids are typed.)
 */
const folder = path.join(__dirname, 'en');
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.ts') && name !== 'index.ts')
  .map((name) => name.replace(/\.ts$/, ''));

/** The app's code, catalogues and tests left out: where a used id must appear, quoted. */
function appCode(): string {
  const root = path.join(__dirname, '..', '..');
  const sources: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== folder && entry.name !== 'testing' && entry.name !== 'gen') walk(full);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        sources.push(readFileSync(full, 'utf8'));
      }
    }
  };
  walk(root);
  return sources.join('\n');
}

describe('The admin catalogue', () => {
  it('given every message, when it is compiled, then it is valid ICU MessageFormat', () => {
    const invalid = Object.entries(en).filter(([, message]) => {
      try {
        compileMessageOrThrow(message);
        return false;
      } catch {
        return true;
      }
    });
    expect(invalid).toEqual([]);
  });

  it.each(files)(
    'given the file %s, when its ids are read, then each starts with the file name',
    async (file) => {
      const { default: messages } = (await import(`./en/${file}`)) as { default: Record<string, string> };
      const misplaced = Object.keys(messages).filter((id) => !id.startsWith(`${file}.`));
      expect(misplaced).toEqual([]);
    },
  );

  it('given the merged catalogue, when two files are merged, then no id is lost to another with the same name', async () => {
    let count = 0;
    for (const file of files) {
      const { default: messages } = (await import(`./en/${file}`)) as { default: Record<string, string> };
      count += Object.keys(messages).length;
    }
    expect(Object.keys(en)).toHaveLength(count);
  });

  it('given the app code, when it is searched for each id, then every message is used by a screen', () => {
    const code = appCode();
    const unused = Object.keys(en).filter((id) => !code.includes(`'${id}'`) && !code.includes(`"${id}"`));
    expect(unused).toEqual([]);
  });

  it('given an id, when the code outside a screen asks for it, then it gets the English words', () => {
    expect(adminT('misc.notFound.title')).toBe('Page Not Found');
  });
});
