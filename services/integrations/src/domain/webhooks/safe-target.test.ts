import type { LookupAddress } from 'node:dns';
import { checkedUrl, checkHost, refusedAddress, safeLookup, type HostResolver } from './safe-target';

describe('where a webhook may go', () => {
  it.each([
    ['93.184.216.34', false, undefined],
    ['2606:2800:220:1:248:1893:25c8:1946', false, undefined],
    ['127.0.0.1', false, 'a loopback address'],
    ['::1', false, 'a loopback address'],
    ['::ffff:127.0.0.1', false, 'a loopback address'],
    ['10.1.2.3', false, 'a private address'],
    ['192.168.0.10', false, 'a private address'],
    ['172.16.5.4', false, 'a private address'],
    ['100.64.0.1', false, 'a carrierGradeNat address'],
    ['fd12:3456::1', false, 'a uniqueLocal address'],
    ['169.254.169.254', false, 'a linkLocal address'],
    ['0.0.0.0', false, 'a unspecified address'],
    ['224.0.0.1', false, 'a multicast address'],
    // Allowed for tests and `make start`: loopback and private, but never link-local or metadata.
    ['127.0.0.1', true, undefined],
    ['10.1.2.3', true, undefined],
    ['169.254.169.254', true, 'a linkLocal address'],
    ['fe80::1', true, 'a linkLocal address'],
    ['fd00:ec2::254', true, 'a uniqueLocal address'],
    ['::ffff:169.254.169.254', true, 'a linkLocal address'],
  ])('%s with private networks %s: %s', (address, allowPrivate, refusal) => {
    expect(refusedAddress(address, allowPrivate)).toBe(refusal);
  });

  it.each([
    ['http://receiver.example.org/hook', false, 'URL must be an https URL'],
    ['ftp://receiver.example.org/hook', true, 'URL must be an https URL'],
    ['https://user:pass@receiver.example.org/hook', false, 'URL must not carry a user name or password'],
    ['not a url', false, 'URL must be a URL'],
  ])('the URL %s (private %s) is refused: %s', (url, allowPrivate, message) => {
    expect(() => checkedUrl(url, allowPrivate)).toThrow(message);
  });

  /** A resolver that answers `addresses` for every name. */
  const answering =
    (...addresses: string[]): HostResolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  /** What the connection's lookup answers: an error's message, or what it hands the socket. */
  const connectLookup = (resolve: HostResolver, options: { all?: boolean; family?: number } = {}) =>
    new Promise<string | LookupAddress[]>((done) =>
      safeLookup(false, resolve)('hooks.example', options, (err, address) =>
        done(err ? err.message : address),
      ),
    );

  it.each([
    [['93.184.216.34'], {}, '93.184.216.34'],
    [['93.184.216.34', '2606:2800:220:1::1'], { family: 6 }, '2606:2800:220:1::1'],
    [['93.184.216.34', '127.0.0.1'], { all: true }, 'refused: hooks.example resolves to a loopback address'],
    [['10.0.0.7'], { all: true }, 'refused: hooks.example resolves to a private address'],
    [['93.184.216.34'], { family: 6 }, 'hooks.example has no address to connect to'],
  ])(
    'when the name resolves to %j at the connection (%j), then it is given %s',
    async (addresses, options, given) => {
      const answer = await connectLookup(answering(...addresses), options);
      expect(typeof answer === 'string' ? answer : answer.map((a) => a.address).join()).toBe(given);
    },
  );

  it('when the name does not resolve or resolves to nothing at save, then it is refused as a host that does not resolve', async () => {
    const url = new URL('https://hooks.example/');
    const failing: HostResolver = () => Promise.reject(new Error('ENOTFOUND'));
    for (const resolve of [failing, answering()]) {
      await expect(checkHost(url, false, resolve)).rejects.toThrow('URL names a host that does not resolve');
    }
    await expect(checkHost(url, false, answering('93.184.216.34', '::1'))).rejects.toThrow(
      'URL leads to a loopback address, which cannot receive webhooks',
    );
    await expect(checkHost(url, false, answering('93.184.216.34'))).resolves.toBeUndefined();
  });
});
