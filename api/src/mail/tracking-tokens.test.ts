import { describe, expect, it } from 'vitest';
import { createTrackingTokens, trackingUrls } from './tracking-tokens.js';

const tokens = createTrackingTokens('a-test-secret-of-enough-length');

describe('tracking tokens', () => {
  it('round-trips open, click and unsubscribe tokens, URL-safe', () => {
    const open = tokens.open(12345);
    const click = tokens.click(9_007_199_254_740_991, 7);
    const unsubscribe = tokens.unsubscribe(1);
    for (const token of [open, click, unsubscribe]) expect(token).toMatch(/^[A-Za-z0-9._~-]{1,512}$/);
    expect(tokens.readOpen(open)).toEqual({ jobId: 12345 });
    expect(tokens.readClick(click)).toEqual({ jobId: 9_007_199_254_740_991, linkId: 7 });
    expect(tokens.readUnsubscribe(unsubscribe)).toEqual({ jobId: 1 });
  });

  it('refuses a token of another kind, another secret, or with any character changed', () => {
    const open = tokens.open(42);
    expect(tokens.readUnsubscribe(open)).toBeUndefined();
    expect(tokens.readClick(open)).toBeUndefined();
    expect(createTrackingTokens('another-secret-of-enough-length').readOpen(open)).toBeUndefined();
    const click = tokens.click(42, 3);
    const [job, link, mac] = click.split('.');
    expect(tokens.readClick(`${job}.${(Number.parseInt(link!, 36) + 1).toString(36)}.${mac}`)).toBeUndefined();
    expect(tokens.readClick(`${job}.${link}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    for (const bad of ['', '.', 'x', `${click}.x`, `0.${mac}`, `${job}.${link}`, 'a'.repeat(512)]) {
      expect(tokens.readClick(bad)).toBeUndefined();
      expect(tokens.readOpen(bad)).toBeUndefined();
    }
  });

  it('refuses ids that are not positive safe integers', () => {
    expect(() => tokens.open(0)).toThrow(RangeError);
    expect(() => tokens.click(1, 1.5)).toThrow(RangeError);
    expect(() => createTrackingTokens('short')).toThrow(RangeError);
  });

  it('builds absolute URLs under the public address', () => {
    const urls = trackingUrls('https://mail.example.org/', tokens);
    expect(urls.open(5)).toBe(`https://mail.example.org/t/o/${tokens.open(5)}`);
    expect(urls.click(5, 6)).toBe(`https://mail.example.org/t/c/${tokens.click(5, 6)}`);
    expect(urls.unsubscribe(5)).toBe(`https://mail.example.org/unsubscribe/${tokens.unsubscribe(5)}`);
  });
});
