import dayjs from 'dayjs';

/** The spec's date formats: audiences and campaign sent dates, and templates. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss A';
export const DATE_TIME_MINUTES_FORMAT = 'YYYY-MM-DD HH:mm A';

/** Tooltip text is truncated at 30 characters (docs/product.md, Limits and constants). */
export const TRUNCATE_LENGTH = 30;

/** Formats a date with dayjs; an absent or unparseable date renders as an empty string. */
export function formatDateTime(date: string | number | Date | null | undefined, format: string = DATE_TIME_FORMAT): string {
  if (date === null || date === undefined || date === '') return '';
  const parsed = dayjs(date);
  return parsed.isValid() ? parsed.format(format) : '';
}

/** Cuts text longer than `max` characters and ends it with an ellipsis (the result is at most `max` long). */
export function truncate(text: string, max: number = TRUNCATE_LENGTH): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** The member's time zone: the browser's (IANA name, e.g. 'Europe/Paris'); dayjs formats in it. */
export function memberTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A time to the minute in the member's time zone, the zone named: '2025-11-03 09:00 AM (Europe/Paris)'. */
export function formatInMemberZone(date: string | number | Date | null | undefined): string {
  const formatted = formatDateTime(date, DATE_TIME_MINUTES_FORMAT);
  return formatted && `${formatted} (${memberTimeZone()})`;
}
