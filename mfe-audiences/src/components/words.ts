import type { PersonHits } from '@mailroom/api-client';

const NUMBER = new Intl.NumberFormat('en-US');

/** '1 mail', '1,234 mails'. */
export const count = (n: number, one: string, many = `${one}s`) => `${NUMBER.format(n)} ${n === 1 ? one : many}`;

/** Opens or clicks, people's and machines' apart: '2 by people, 1 by a machine'. */
export const hitsInWords = ({ people, machines }: PersonHits) =>
  `${NUMBER.format(people)} by ${people === 1 ? 'a person' : 'people'}, ${NUMBER.format(machines)} by ${machines === 1 ? 'a machine' : 'machines'}`;

/** A typed value as a table shows it: yes/no as words, numbers and 'YYYY-MM-DD' dates as stored. */
export function displayValue(value: string | number | boolean | null | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}
