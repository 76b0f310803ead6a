/**
 * Where a webhook may be sent (server-side request forgery, issue 27). In production an endpoint must be
 * HTTPS and every address its host resolves to must be public unicast: not private, loopback, link-local,
 * unique-local, carrier-grade NAT, multicast, reserved, nor an IPv6 form that carries an IPv4 address
 * (mapped, 6to4, Teredo, NAT64) unless that address is public itself. The check runs when an endpoint is
 * registered or changed, and again on every connection the worker opens (`guardedLookup`), since a name can
 * resolve elsewhere by then. Outside production (development, the tests, the benchmarks) local receivers are allowed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';

export const HTTPS_ONLY = 'A webhook endpoint must be an https:// URL.';
export const NOT_A_URL = 'A webhook endpoint must be an http:// or https:// URL without a user name or password.';
export const privateTargetMessage = (host: string) =>
  `The webhook endpoint's host ${host} resolves to a private, loopback or link-local address; only public addresses can be reached.`;
export const unresolvedMessage = (host: string) => `The webhook endpoint's host ${host} could not be resolved.`;

/** Whether an address (v4 or v6 text) is one a webhook may reach: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:a.b.c.d reaches a.b.c.d: judge the IPv4 address it carries.
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

const lookupAll = promisify(dnsLookup);

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/**
 * Checks an endpoint's URL for registration; throws TargetRefused with the member's message. `production`
 * turns on HTTPS only and the address checks; `resolve` is the DNS (tests hand in their own).
 */
export async function checkTarget(
  raw: string,
  production: boolean,
  resolve: (host: string) => Promise<string[]> = async (host) =>
    (await lookupAll(host, { all: true, verbatim: true })).map((a) => a.address),
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused(NOT_A_URL);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) throw new TargetRefused(NOT_A_URL);
  if (!production) return url;
  if (url.protocol !== 'https:') throw new TargetRefused(HTTPS_ONLY);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new TargetRefused(unresolvedMessage(host));
    }
  }
  if (addresses.length === 0) throw new TargetRefused(unresolvedMessage(host));
  if (!addresses.every(isPublicAddress)) throw new TargetRefused(privateTargetMessage(host));
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the sockets of the delivery's HTTP agent (net/tls `lookup` option): the addresses a host
 * resolves to at connection time, refused unless public. The socket then connects to exactly the address
 * checked, so a name that changes between the check and the connection gains nothing.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | 'IPv4' | 'IPv6' } | undefined,
  callback: LookupCallback,
): void {
  dnsLookup(
    hostname,
    { family: options?.family ?? 0, all: true, verbatim: true },
    (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      const list = addresses;
      const refused = list.find((entry) => !isPublicAddress(entry.address));
      if (refused || list.length === 0) {
        const failure: NodeJS.ErrnoException = new TargetRefused(privateTargetMessage(hostname));
        failure.code = 'EWEBHOOKTARGET';
        return callback(failure, []);
      }
      if (options?.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    },
  );
}
