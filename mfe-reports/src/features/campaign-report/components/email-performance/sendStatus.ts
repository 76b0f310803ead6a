import type { BadgeProps } from '@fluentui/react-components';
import type { EmailPerformanceRow, SendStatus } from '@mailroom/api-client';
import { SEND_STATUS_LABELS, sendStatusLabel } from '@mailroom/api-client/labels';

/** Each send status's chip colour; its label is the one the export writes too (SEND_STATUS_LABELS). */
const COLORS: Record<SendStatus, BadgeProps['color']> = {
  FAILED: 'danger',
  SENT_WAIT_ACK: 'informative',
  SENT_SUCCESS: 'success',
  NOT_SENT: 'subtle',
  QUEUED: 'informative',
  SENDING: 'warning',
  UNKNOWN: 'severe',
};

/** Every send status with its label and chip colour, in the Send Status filter's order (SEND_STATUS_LABELS's). */
export const SEND_STATUSES = Object.fromEntries(
  (Object.keys(SEND_STATUS_LABELS) as SendStatus[]).map((status) => [status, { label: SEND_STATUS_LABELS[status], color: COLORS[status] }]),
) as Record<SendStatus, { label: string; color: BadgeProps['color'] }>;

/**
 * A row's chip: its status, or 'Suppressed (reason)' or 'Unsubscribed from this audience' for a NOT_SENT contact
 * that is never sent to.
 */
export function statusChip(row: Pick<EmailPerformanceRow, 'status' | 'suppressionReason' | 'leftAudience'>): {
  label: string;
  color: BadgeProps['color'];
} {
  return row.suppressionReason || row.leftAudience ? { label: sendStatusLabel(row), color: 'important' } : SEND_STATUSES[row.status];
}
