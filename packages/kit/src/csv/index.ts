/**
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (also after leading spaces, and tab or carriage
 * return, which some strip first) as a formula: such a cell gets a leading apostrophe, as OWASP's CSV-injection
 * advice says. A cell holding a separator of either kind is quoted: where `;` separates cells (spreadsheets in
 * most of Europe), `Eve;=1+1;x` unquoted would be three cells, the second a formula. Then RFC 4180 quoting.
 */
function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (/^(?:[\t\r]| *[=+\-@])/.test(text)) text = `'${text}`;
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: Array<string | number | boolean>) => `${cells.map(csvCell).join(',')}\r\n`;
