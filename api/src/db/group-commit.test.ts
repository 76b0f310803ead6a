import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.js';

/** A write that records each batch it gets and answers when told to. */
function recordingWrite() {
  const batches: number[][] = [];
  const open: (() => void)[] = [];
  const write = (items: readonly number[]) => {
    batches.push([...items]);
    return new Promise<number[]>((resolve) => open.push(() => resolve(items.map((item) => item * 10))));
  };
  const finishNext = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    open.shift()!();
  };
  return { batches, write, finishNext };
}

describe('groupCommit', () => {
  it('writes the items of one turn together, two writes at most at once, the rest after, each answered in order', async () => {
    const { batches, write, finishNext } = recordingWrite();
    const submit = groupCommit(write);
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const first = [1, 2, 3].map(submit);
    await turn();
    // The first write is in flight: a second one takes what arrives now.
    const second = [4, 5].map(submit);
    await turn();
    // Two are in flight: these wait for one of them to end.
    const third = [6, 7].map(submit);
    await turn();
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    for (let i = 0; i < 3; i++) await finishNext();
    expect(await Promise.all([...first, ...second, ...third])).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
      [6, 7],
    ]);
  });

  it('writes at most maxItems at a time', async () => {
    const { batches, write, finishNext } = recordingWrite();
    const submit = groupCommit(write, { maxItems: 2 });
    const all = [1, 2, 3, 4, 5].map(submit);
    for (let i = 0; i < 3; i++) await finishNext();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails every caller of a batch whose write fails, and goes on with the next batch', async () => {
    let calls = 0;
    const submit = groupCommit(async (items: readonly number[]) => {
      calls += 1;
      if (calls === 1) throw new Error('the database went away');
      return items;
    });
    const failed = [1, 2].map((item) =>
      submit(item).then(
        () => 'ok',
        (error: Error) => error.message,
      ),
    );
    expect(await Promise.all(failed)).toEqual(['the database went away', 'the database went away']);
    expect(await submit(3)).toBe(3);
  });

  it('refuses a write that answers for fewer items than it was given', async () => {
    const submit = groupCommit(async (items: readonly number[]) => items.slice(1));
    await expect(Promise.all([submit(1), submit(2)])).rejects.toThrow('1 results for 2 items');
  });
});
