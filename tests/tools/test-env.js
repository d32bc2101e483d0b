// Every test file's environment, before its first import. The products and stacks the tests start inherit it.
// The student service's waiting room forms a line only at an administrator's limit in the suite: the suite keeps the
// machine busy, and that pressure must not put a test's students in line. The waiting room's own tests choose the
// mode they prove (docs/waiting-room.md).
process.env.WAITING_ROOM ??= 'limit-only';

// RSA keys of 2048 bits cost about a third of a second of CPU each to generate, and the component lane made about two
// for every file that imports @readiness/testing (its admin-token signer and the forger), and one more for each auth,
// report or integrations service it started without a key (kept in a fresh data folder): minutes of the proof's CPU.
// In the tests, `generateKeyPairSync('rsa', { modulusLength: 2048 })` therefore hands out keys from a pool kept on
// this machine (generated once each, in a folder of this user's): real keys of the same size, all different within a
// test file (each file starts again at the pool's first key), so nothing a test compares changes. Other sizes, types
// and encodings, and any file's 65th key, are generated as before. docs/testing.md, "Where the time goes".
const crypto = require('node:crypto');
const POOL = Symbol.for('readiness.test-rsa-key-pool');
if (!crypto[POOL]) {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const generate = crypto.generateKeyPairSync;
  const folder = path.join(os.tmpdir(), `readiness-test-rsa-keys-${process.getuid?.() ?? 'user'}`);
  const pool = { next: 0, size: 64 };
  const pooled = (index) => {
    const file = path.join(folder, `rsa-2048-${index}.pem`);
    try {
      return crypto.createPrivateKey(fs.readFileSync(file, 'utf8'));
    } catch {
      // Not made yet on this machine (or unreadable): made now, written whole before anyone can read it.
    }
    const { privateKey } = generate('rsa', { modulusLength: 2048 });
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    fs.renameSync(partial, file);
    return privateKey;
  };
  crypto.generateKeyPairSync = function generateKeyPairSync(type, options, ...rest) {
    const plain =
      type === 'rsa' &&
      options?.modulusLength === 2048 &&
      options.publicKeyEncoding === undefined &&
      options.privateKeyEncoding === undefined &&
      rest.length === 0;
    if (!plain || pool.next >= pool.size) return generate.call(this, type, options, ...rest);
    const privateKey = pooled(pool.next++);
    return { privateKey, publicKey: crypto.createPublicKey(privateKey) };
  };
  crypto[POOL] = pool;
}
crypto[POOL].next = 0;
