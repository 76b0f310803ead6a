/** DOMAIN_RATE_LIMITS: the setting's parsing and which limit a receiving domain gets (issue 28). */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { domainLimiter, parseDomainLimits, recipientDomain } from './domain-limits.js';

describe('domain limits', () => {
  it('parses domain=rate pairs, wildcards and spaces, in lower case', () => {
    expect(parseDomainLimits(' Gmail.com=50, yahoo.com = 20,*.edu=10,,*.ac.uk=2.5')).toEqual([
      { pattern: 'gmail.com', perSecond: 50 },
      { pattern: 'yahoo.com', perSecond: 20 },
      { pattern: '*.edu', perSecond: 10 },
      { pattern: '*.ac.uk', perSecond: 2.5 },
    ]);
  });

  it('refuses what is not a limit, naming the entry', () => {
    expect(() => parseDomainLimits('gmail.com')).toThrow('"gmail.com" is not domain=rate');
    expect(() => parseDomainLimits('gmail.com=0')).toThrow('the rate must be a number of mails a second above 0');
    expect(() => parseDomainLimits('gmail.com=-3')).toThrow('above 0');
    expect(() => parseDomainLimits('gmail.com=fast')).toThrow('above 0');
    expect(() => parseDomainLimits('localhost=5')).toThrow('is not domain=rate');
    expect(() => parseDomainLimits('*=5')).toThrow('is not domain=rate');
    expect(() => parseDomainLimits('a.com=1,A.com=2')).toThrow('"a.com" is given twice');
    expect(() => parseDomainLimits(' , ')).toThrow('must list at least one');
  });

  it('is a setting the configuration checks', () => {
    expect(loadConfig({ DOMAIN_RATE_LIMITS: 'gmail.com=50,*.edu=10' }).sending.domainLimits).toHaveLength(2);
    expect(loadConfig({}).sending.domainLimits).toEqual([]);
    expect(() => loadConfig({ DOMAIN_RATE_LIMITS: 'gmail.com=x' })).toThrow('DOMAIN_RATE_LIMITS');
    expect(() => loadConfig({ WARMUP_START: '100' })).toThrow('a warm-up plan needs all three');
    expect(() => loadConfig({ WARMUP_START: '100', WARMUP_FACTOR: '1.5', WARMUP_START_DATE: '2026-02-30' })).toThrow('WARMUP_START_DATE');
    expect(loadConfig({ WARMUP_START: '100', WARMUP_FACTOR: '1.5', WARMUP_START_DATE: '2026-02-28' }).sending.warmUp).toEqual({
      start: 100,
      factor: 1.5,
      startDate: '2026-02-28',
    });
  });

  it('gives an exact rule before a wildcard, the longest suffix first, each domain under a wildcard its own limit', () => {
    const limit = domainLimiter(parseDomainLimits('*.uk=20,*.ac.uk=5,ox.ac.uk=8,gmail.com=50'));
    expect(limit('gmail.com')).toBe(50);
    expect(limit('mail.gmail.com')).toBeUndefined();
    expect(limit('ox.ac.uk')).toBe(8);
    expect(limit('cam.ac.uk')).toBe(5);
    expect(limit('bbc.co.uk')).toBe(20);
    expect(limit('uk')).toBeUndefined();
    expect(limit('example.org')).toBeUndefined();
  });

  it("reads a job's domain as the report does: after the last '@', lower case", () => {
    expect(recipientDomain('"a@b"@Gmail.COM')).toBe('gmail.com');
  });
});
