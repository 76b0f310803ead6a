import { describe, expect, it } from 'vitest';
import { addOutcomeSentences } from './AddOutcome';

const line = (n: number) => ({ line: n, value: `bad ${n}`, message: 'Invalid email address' });

describe('the outcome of an add, in sentences', () => {
  it('writes each count with its own plural', () => {
    expect(addOutcomeSentences({ added: 1, alreadySuppressed: 1, invalidLines: 1, invalid: [line(3)] })).toEqual([
      '1 address was added to the suppressions.',
      '1 address was already suppressed.',
      '1 line was not added:',
    ]);
    expect(addOutcomeSentences({ added: 2, alreadySuppressed: 3, invalidLines: 2, invalid: [line(1), line(2)] })).toEqual([
      '2 addresses were added to the suppressions.',
      '3 addresses were already suppressed.',
      '2 lines were not added:',
    ]);
  });

  it('says when nothing was added, and leaves out what did not happen', () => {
    expect(addOutcomeSentences({ added: 0, alreadySuppressed: 0, invalidLines: 1, invalid: [line(1)] })).toEqual([
      'No address was added.',
      '1 line was not added:',
    ]);
    expect(addOutcomeSentences({ added: 0, alreadySuppressed: 4, invalidLines: 0, invalid: [] })).toEqual([
      'No address was added.',
      '4 addresses were already suppressed.',
    ]);
  });

  it('says that only the first lines are listed when the answer left some out', () => {
    const listed = Array.from({ length: 1000 }, (_, i) => line(i + 1));
    expect(addOutcomeSentences({ added: 12_000, alreadySuppressed: 0, invalidLines: 1234, invalid: listed })).toEqual([
      '12,000 addresses were added to the suppressions.',
      '1,234 lines were not added; the first 1,000 are listed:',
    ]);
  });
});
