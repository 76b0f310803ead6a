/** A count with its noun, singular for one: '1 email', '8 emails', '1 minute'. Nouns with a plain -s plural only. */
export const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
