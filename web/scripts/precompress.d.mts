/** What `precompress` made: files compressed, their bytes, and the bytes of their Brotli and gzip copies. */
export interface PrecompressTotals {
  files: number;
  bytes: number;
  br: number;
  gz: number;
}
export function precompress(folder: string): Promise<PrecompressTotals>;
export function describe(totals: PrecompressTotals): string;
