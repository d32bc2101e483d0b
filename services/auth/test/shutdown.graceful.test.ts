import { createPasswordHasher } from '../src/infrastructure/password-hasher';
import { ROOT, startAuth } from './harness';

jest.setTimeout(60_000);

describe('password hasher close', () => {
  it('when it is closed with hashes queued, then they all finish and later work is refused', async () => {
    const hasher = createPasswordHasher({ cost: 10, workers: 1 });
    const hash = await hasher.hash('correct horse');
    const checks = ['correct horse', 'wrong', 'correct horse', 'wrong'].map((p) => hasher.compare(p, hash));

    await hasher.close();

    await expect(Promise.all(checks)).resolves.toEqual([true, false, true, false]);
    await expect(hasher.compare('correct horse', hash)).rejects.toThrow('password hasher is closed');
  });

  it('when queued hashes outlast the close timeout, then they are refused rather than holding the shutdown', async () => {
    const hasher = createPasswordHasher({ cost: 12, workers: 1 });
    const work = Array.from({ length: 4 }, (_, i) => hasher.hash(`password-${i}`));
    const settled = Promise.allSettled(work);

    await hasher.close({ timeoutMs: 1 });

    const outcomes = await settled;
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThan(0);
  });
});

describe('auth service stop during sign-ins', () => {
  it('when the service stops while sign-ins are queued for hashing, then each gets its answer, not a 500', async () => {
    // One worker, so the sign-ins queue behind each other as they do under load.
    const h = await startAuth('embedded', { BCRYPT_WORKERS: 1 });
    const passwords = [ROOT.password, 'not-the-password', ROOT.password, ROOT.password, 'not-the-password'];
    let received = 0;
    const allReceived = new Promise<void>((resolve) => {
      h.service.server.on('request', () => {
        received += 1;
        if (received === passwords.length) resolve();
      });
    });
    const logins = passwords.map((password) =>
      fetch(`${h.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ROOT.email, password }),
      }).then((res) => res.status),
    );
    await allReceived;

    await h.close();

    expect(await Promise.all(logins)).toEqual([200, 401, 200, 200, 401]);
  });
});
