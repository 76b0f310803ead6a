import type { BadgeProps } from '@fluentui/react-components';
import type { SendStatus } from '@mailroom/api-client';

/**
 * Every send status with its label (SPEC 4) and chip colour, in the Send Status filter's order: the spec's
 * four first, then the server's in-between states, which rows can show too.
 */
export const SEND_STATUSES: Record<SendStatus, { label: string; color: BadgeProps['color'] }> = {
  FAILED: { label: 'Failed', color: 'danger' },
  SENT_WAIT_ACK: { label: 'Sent (waiting Ack)', color: 'informative' },
  SENT_SUCCESS: { label: 'Sent successfully', color: 'success' },
  NOT_SENT: { label: 'NOT_SENT', color: 'subtle' },
  QUEUED: { label: 'Queued', color: 'informative' },
  SENDING: { label: 'Sending', color: 'warning' },
  UNKNOWN: { label: 'Unknown', color: 'severe' },
};
