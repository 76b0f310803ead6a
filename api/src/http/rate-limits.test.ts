import { describe, expect, it } from 'vitest';
import { ipKeyGenerator } from 'express-rate-limit';
import { clientKey } from './rate-limits.js';

describe('clientKey', () => {
  it('counts an IPv4 address as itself, written as IPv4 or as IPv4-mapped IPv6', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts an IPv6 address by its /56 network, as express-rate-limit does', () => {
    expect(clientKey('2001:db8:1234:5678::1')).toBe('2001:db8:1234:5600::/56');
    expect(clientKey('2001:db8:1234:56ff:aaaa::2')).toBe(clientKey('2001:db8:1234:5678::1'));
    for (const ip of ['::1', '2001:db8::8a2e:370:7334', '::ffff:999.1.1.1', '::ffff:c000:0280'])
      expect(clientKey(ip)).toBe(ipKeyGenerator(ip));
  });
});
