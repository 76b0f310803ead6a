import { Badge, type BadgeProps } from '@fluentui/react-components';
import type { CampaignStatus } from '@mailroom/api-client';

export const STATUS_LABELS: Record<CampaignStatus, string> = {
  DRAFT: 'Draft',
  SCHEDULED: 'Scheduled',
  SENDING: 'Sending',
  SENT: 'Sent',
  ERROR: 'Error',
};

const LIST_LOOK: Record<CampaignStatus, Pick<BadgeProps, 'appearance' | 'color'>> = {
  DRAFT: { appearance: 'tint', color: 'informative' },
  SCHEDULED: { appearance: 'tint', color: 'brand' },
  SENDING: { appearance: 'filled', color: 'warning' },
  SENT: { appearance: 'filled', color: 'success' },
  ERROR: { appearance: 'outline', color: 'danger' },
};

/**
 * A campaign's status chip (docs/product.md, the screens and their states): the list shows Sending as a warning, Sent green and Error outlined
 * in red; the editor (`neutralUnlessSent`) shows Sent green and every other status neutral.
 */
export function CampaignStatusBadge({ status, neutralUnlessSent = false }: { status: CampaignStatus; neutralUnlessSent?: boolean }) {
  const look = neutralUnlessSent && status !== 'SENT' ? { appearance: 'tint' as const, color: 'informative' as const } : LIST_LOOK[status];
  return (
    <Badge {...look} shape="rounded" size="large">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
