import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The templates' stylesheets (`styles/`): beside this module when it runs from the sources; from `dist/`, in the
 * sources' folder, which the image carries as it carries the SQL migrations (the build compiles TypeScript only).
 */
const STYLES_DIR = existsSync(path.join(__dirname, 'styles'))
  ? path.join(__dirname, 'styles')
  : path.resolve(__dirname, '../../../src/domain/templates/styles');

/**
 * One stylesheet of `styles/`, read from the package (once: each template loads its own when its module loads).
 * Each `var(--name)` in it stands for a value the template writes in, here: the colours and font stacks the
 * TypeScript shares, the sizes it sets; the pages define no custom properties of their own. A `var()` the template
 * does not give, or a value the sheet never uses, stops the load.
 */
export function loadStylesheet(file: string, values: Readonly<Record<string, string>> = {}): string {
  const text = readFileSync(path.join(STYLES_DIR, file), 'utf8');
  const unused = new Set(Object.keys(values));
  const css = text.replace(/var\(--([\w-]+)\)/g, (_, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) throw new Error(`${file} uses var(--${name}), which its template does not give`);
    unused.delete(name);
    return value;
  });
  if (unused.size > 0) {
    throw new Error(`${file} does not use ${[...unused].map((name) => `var(--${name})`).join(', ')}`);
  }
  return css;
}

/**
 * `css` with its comment `/* <slot> *\/` replaced by `declarations`: what differs between two uses of one sheet,
 * written in once, at load.
 */
export function fillSlot(css: string, slot: string, declarations: string): string {
  const marker = `/* ${slot} */`;
  if (!css.includes(marker)) throw new Error(`the stylesheet has no ${marker}`);
  return css.replace(marker, () => declarations);
}
