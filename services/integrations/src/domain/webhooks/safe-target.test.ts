import { checkedUrl, refusedAddress } from './safe-target';

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
});
