import { describe, expect, it } from 'vitest';
import { createSlots } from './slots.js';

/** Resolves with what the promise resolved to, or 'waiting' if it has not by the next turns of the event loop. */
const settled = async <T>(promise: Promise<T>): Promise<T | 'waiting'> =>
  Promise.race([promise, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 20))]);

describe('slots', () => {
  it('takes as many as are free, up to the wanted number, and never more than the limit in all', async () => {
    const slots = createSlots(10);
    expect(await slots.take(4)).toBe(4);
    expect(await slots.take(50)).toBe(6);
    expect(slots.free()).toBe(0);
  });

  it('waits for `atLeast` free slots rather than taking one at a time', async () => {
    const slots = createSlots(8);
    await slots.take(8);
    const next = slots.take(5, { atLeast: 3 });
    slots.release(1);
    expect(await settled(next)).toBe('waiting');
    slots.release(1);
    expect(await settled(next)).toBe('waiting');
    slots.release(1);
    expect(await settled(next)).toBe(3);
  });

  it('wants no more than `wanted` when fewer than `atLeast` are wanted', async () => {
    const slots = createSlots(8);
    await slots.take(7);
    expect(await settled(slots.take(1, { atLeast: 4 }))).toBe(1);
  });

  it('wakes every waiter that a release satisfies, in turn', async () => {
    const slots = createSlots(4);
    await slots.take(4);
    const first = slots.take(2);
    const second = slots.take(2);
    slots.release(4);
    expect(await Promise.all([first, second])).toEqual([2, 2]);
    expect(slots.free()).toBe(0);
  });

  it('a release of more than was taken frees no more than the limit', async () => {
    const slots = createSlots(3);
    await slots.take(1);
    slots.release(5);
    expect(slots.free()).toBe(3);
    slots.release(0);
    slots.release(-2);
    expect(slots.free()).toBe(3);
  });

  it('refuses a limit or a wish that is not a whole number of at least one', async () => {
    expect(() => createSlots(0)).toThrow(RangeError);
    expect(() => createSlots(1.5)).toThrow(RangeError);
    await expect(createSlots(2).take(0)).rejects.toThrow(RangeError);
  });
});
