import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { AppError } from '@readiness/kit/errors';
import ipaddr from 'ipaddr.js';

/**
 * Every address a host name resolves to, as the system's resolver answers (`getaddrinfo`, through `dns.lookup`):
 * what the check at save and the check at each connection both read. A caller in the same process (tests) may give
 * another (a name that resolves to a public address at save and to loopback when the delivery connects).
 */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true });

/** Link-local and cloud metadata addresses: refused even where private networks are allowed. */
const ALWAYS_REFUSED = ['linkLocal', 'unspecified', 'broadcast', 'multicast', 'reserved'];
const METADATA = ['fd00:ec2::254'];

/**
 * Why an address may not receive a webhook, or undefined when it may: only public unicast addresses, and
 * loopback or private ones where `allowPrivate` (tests, `make start`); never link-local (169.254.0.0/16, fe80::/10,
 * cloud metadata) or metadata addresses.
 */
export function refusedAddress(address: string, allowPrivate: boolean): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return 'an address that does not parse';
  }
  const range = parsed.range();
  if (ALWAYS_REFUSED.includes(range) || METADATA.includes(parsed.toString())) return `a ${range} address`;
  if (range === 'unicast') return undefined;
  return allowPrivate ? undefined : `a ${range} address`;
}

const refused = (message: string) =>
  new AppError('validation_failed', message, 400, { details: { field: 'url' } });

/** The URL an endpoint may have: https (http too where private networks are allowed), no credentials in it. */
export function checkedUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refused('URL must be a URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw refused('URL must be an https URL');
  }
  if (url.username || url.password) throw refused('URL must not carry a user name or password');
  return url;
}

/** Every address a host name resolves to, each checked; throws the first refusal. */
export async function checkHost(url: URL, allowPrivate: boolean, resolve: HostResolver): Promise<void> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [host]
    : await resolve(host).then(
        (found) => found.map((a) => a.address),
        () => [],
      );
  if (!addresses.length) throw refused('URL names a host that does not resolve');
  for (const address of addresses) {
    const why = refusedAddress(address, allowPrivate);
    if (why) throw refused(`URL leads to ${why}, which cannot receive webhooks`);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup for the connection itself that refuses what `refusedAddress` refuses: the address checked is the one
 * connected to, so a name that resolved to a public address at save time and to a private one now (DNS rebinding)
 * is refused at the connection.
 */
export function safeLookup(allowPrivate: boolean, resolve: HostResolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    resolve(hostname).then(
      (all) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const found = family ? all.filter((a) => a.family === family) : all;
        if (!found.length) {
          return callback(
            Object.assign(new Error(`${hostname} has no address to connect to`), { code: 'ENOTFOUND' }),
            '',
          );
        }
        for (const a of found) {
          const why = refusedAddress(a.address, allowPrivate);
          if (why)
            return callback(
              Object.assign(new Error(`refused: ${hostname} resolves to ${why}`), { code: 'EREFUSED' }),
              '',
            );
        }
        if (options.all) return callback(null, found);
        callback(null, found[0]!.address, found[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
