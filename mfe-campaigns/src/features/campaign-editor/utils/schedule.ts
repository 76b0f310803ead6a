/** Scheduled sending (an addition to the spec): the picker's values as an instant. */
export const SCHEDULE_PAST = 'Choose a time in the future.';
export const SCHEDULE_INVALID = 'Choose a date and a time.';

/**
 * The instant a date ('YYYY-MM-DD') and a time ('HH:mm') name in the member's time zone (the
 * browser's: a date-time string without an offset is local time), or null when either is missing.
 */
export function scheduledInstant(date: string, time: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const at = new Date(`${date}T${time}:00`);
  return Number.isNaN(at.getTime()) ? null : at;
}
