/**
 * Counts in words, the one way every screen writes them: English's plural rule (Intl.PluralRules) picks
 * the form, and the number is grouped as the product writes numbers ('1,204').
 */
const RULES = new Intl.PluralRules('en-US');
const NUMBER = new Intl.NumberFormat('en-US');

/**
 * The form of a word for `n` of something: plural(1, 'contact') is 'contact', plural(0, 'contact')
 * 'contacts'; irregular forms and verbs name their plural: plural(n, 'is', 'are'), plural(n, 'It', 'They').
 */
export function plural(n: number, one: string, other = `${one}s`): string {
  return RULES.select(n) === 'one' ? one : other;
}

/** `n` with its noun: '1 contact', '1,204 contacts', counted(2, 'person', 'people') '2 people'. */
export function counted(n: number, one: string, other?: string): string {
  return `${NUMBER.format(n)} ${plural(n, one, other)}`;
}
