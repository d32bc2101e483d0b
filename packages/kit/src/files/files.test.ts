import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HEAD_BYTES, detectFile, fileSource, type UploadedFile } from './index';

const dir = mkdtempSync(path.join(tmpdir(), 'files-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A part as multer's disk storage hands it on. */
function spooled(name: string, data: Buffer): UploadedFile {
  const file = path.join(dir, name);
  writeFileSync(file, data);
  return { path: file, size: data.length, originalname: name } as UploadedFile;
}

test('when a spooled text file has a character cut by the end of its first bytes, then it is still text', async () => {
  const data = Buffer.concat([Buffer.alloc(HEAD_BYTES - 1, 0x61), Buffer.from('é and more text\n')]);
  const source = await fileSource(spooled('essay.txt', data));
  expect(source.head).toHaveLength(HEAD_BYTES);
  expect(source.size).toBe(data.length);
  expect(detectFile('essay.txt', source, ['txt'])).toEqual({
    extension: 'txt',
    mimetype: 'text/plain; charset=utf-8',
  });
  // The whole file, cut the same way, is not text: the check of a complete file keeps its rigour.
  expect(detectFile('essay.txt', data.subarray(0, HEAD_BYTES), ['txt'])).toBeUndefined();
});

test('when a spooled file is disguised, empty or binary, then it is refused as a buffer would be', async () => {
  const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200_000, 0x90)]);
  expect(detectFile('essay.pdf', await fileSource(spooled('a.pdf', exe)), ['pdf'])).toBeUndefined();
  expect(
    detectFile('notes.txt', await fileSource(spooled('b.txt', Buffer.alloc(0))), ['txt']),
  ).toBeUndefined();
  const nul = Buffer.concat([Buffer.from('text'), Buffer.from([0]), Buffer.alloc(HEAD_BYTES, 0x61)]);
  expect(detectFile('notes.txt', await fileSource(spooled('c.txt', nul)), ['txt'])).toBeUndefined();
});

test('when a spooled file is read, then its stream and SHA-256 are those of the whole file', async () => {
  const data = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3 * HEAD_BYTES + 17, 0x41)]);
  const source = await fileSource(spooled('d.pdf', data));
  const chunks: Buffer[] = [];
  for await (const chunk of source.open()) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(data)).toBe(true);
  expect(source.sha256).toBe(createHash('sha256').update(data).digest('hex'));
});
