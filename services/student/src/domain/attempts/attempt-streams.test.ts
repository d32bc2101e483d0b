import { addressKey } from './attempt-streams';

describe('the client a per-address cap of event streams counts', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::a', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:1:2:3', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    // Not an address (a socket closed before it was read): counted under its own text.
    ['', ''],
  ])('%s counts as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
