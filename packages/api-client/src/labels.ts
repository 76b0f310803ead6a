/**
 * What the report calls each send status, shared by the screen (mfe-reports) and the xlsx export
 * (api), so both read the same. A NOT_SENT row whose address is suppressed reads 'Suppressed' with
 * the reason: it is never sent to, and no action is offered for it.
 */
import type { EmailPerformanceRow, SendStatus, SuppressionReason } from './index.js';

/** SPEC 4's labels, then the server's in-between states. */
export const SEND_STATUS_LABELS: Record<SendStatus, string> = {
  FAILED: 'Failed',
  SENT_WAIT_ACK: 'Sent (waiting Ack)',
  SENT_SUCCESS: 'Sent successfully',
  NOT_SENT: 'NOT_SENT',
  QUEUED: 'Queued',
  SENDING: 'Sending',
  UNKNOWN: 'Unknown',
};

export const SUPPRESSED_LABEL = 'Suppressed';

export const SUPPRESSION_REASON_LABELS: Record<SuppressionReason, string> = {
  UNSUBSCRIBE: 'unsubscribed',
  HARD_BOUNCE: 'hard bounce',
  COMPLAINT: 'complaint',
};

/** The Send Status of a row as words: 'Sent successfully', or 'Suppressed (unsubscribed)'. */
export function sendStatusLabel(row: Pick<EmailPerformanceRow, 'status' | 'suppressionReason'>): string {
  return row.suppressionReason
    ? `${SUPPRESSED_LABEL} (${SUPPRESSION_REASON_LABELS[row.suppressionReason]})`
    : SEND_STATUS_LABELS[row.status];
}
