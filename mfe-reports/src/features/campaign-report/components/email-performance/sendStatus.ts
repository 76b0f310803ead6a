import type { BadgeProps } from '@fluentui/react-components';
import type { EmailPerformanceRow, SendStatus } from '@mailroom/api-client';
import { SEND_STATUS_LABELS, sendStatusLabel } from '@mailroom/api-client/labels';

/**
 * Every send status with its label (SPEC 4; the labels are shared with the export) and chip colour, in
 * the Send Status filter's order: the spec's four first, then the server's in-between states, which rows
 * can show too.
 */
export const SEND_STATUSES: Record<SendStatus, { label: string; color: BadgeProps['color'] }> = {
  FAILED: { label: SEND_STATUS_LABELS.FAILED, color: 'danger' },
  SENT_WAIT_ACK: { label: SEND_STATUS_LABELS.SENT_WAIT_ACK, color: 'informative' },
  SENT_SUCCESS: { label: SEND_STATUS_LABELS.SENT_SUCCESS, color: 'success' },
  NOT_SENT: { label: SEND_STATUS_LABELS.NOT_SENT, color: 'subtle' },
  QUEUED: { label: SEND_STATUS_LABELS.QUEUED, color: 'informative' },
  SENDING: { label: SEND_STATUS_LABELS.SENDING, color: 'warning' },
  UNKNOWN: { label: SEND_STATUS_LABELS.UNKNOWN, color: 'severe' },
};

/** A row's chip: its status, or 'Suppressed (reason)' for a NOT_SENT contact that is never sent to. */
export function statusChip(row: Pick<EmailPerformanceRow, 'status' | 'suppressionReason'>): { label: string; color: BadgeProps['color'] } {
  return row.suppressionReason ? { label: sendStatusLabel(row), color: 'important' } : SEND_STATUSES[row.status];
}
