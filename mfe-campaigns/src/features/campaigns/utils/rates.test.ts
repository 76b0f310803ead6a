import { describe, expect, it } from 'vitest';
import { formatRate, rateOf, sendingProgress } from './rates';

describe('rates', () => {
  it('divide unique opens or clicks by the jobs sent, by 1 when none were sent', () => {
    expect(rateOf(17, 40)).toBe(0.425);
    expect(rateOf(0, 0)).toBe(0);
    expect(rateOf(2, 0)).toBe(2);
  });

  it('show a percentage with one decimal', () => {
    expect(formatRate(0.425)).toBe('42.5%');
    expect(formatRate(1 / 3)).toBe('33.3%');
    expect(formatRate(0)).toBe('0.0%');
    expect(formatRate(1)).toBe('100.0%');
  });

  it('count sending progress as sent plus failed over the recipients', () => {
    expect(sendingProgress(45, 5, 200)).toBe(0.25);
    expect(sendingProgress(10, 0, 10)).toBe(1);
    expect(sendingProgress(0, 0, 0)).toBeNull();
  });
});
