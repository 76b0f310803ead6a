import { Badge, Tooltip, type BadgeProps } from '@fluentui/react-components';
import type { CampaignStatus } from '@mailroom/api-client';
import { CAMPAIGN_STATUS_LABELS } from '@mailroom/api-client/labels';

type Look = Pick<BadgeProps, 'appearance' | 'color'>;

/** docs/product.md, Campaigns list: Sending a warning, Sent green, Error outlined in red; a draft and a scheduled one tinted. */
const LOOKS: Record<CampaignStatus, Look> = {
  DRAFT: { appearance: 'tint', color: 'informative' },
  SCHEDULED: { appearance: 'tint', color: 'brand' },
  SENDING: { appearance: 'filled', color: 'warning' },
  SENT: { appearance: 'filled', color: 'success' },
  ERROR: { appearance: 'outline', color: 'danger' },
};

/** The editor's chip: 'In the editor the other statuses are neutral' (every one but Sent). */
const NEUTRAL: Look = { appearance: 'tint', color: 'informative' };

/** Said when a campaign in ERROR carries no message of its own. */
export const SENDING_STOPPED = 'Sending stopped';

export interface CampaignStatusBadgeProps {
  status: CampaignStatus;
  /** Why sending stopped: the ERROR chip's tooltip. */
  errorMessage?: string | null | undefined;
  /** The editor's look: Sent green, every other status neutral. */
  neutralUnlessSent?: boolean;
}

/**
 * A campaign's status chip, one for every screen that shows one (the campaigns list, the editor, the
 * report). The ERROR chip takes the keyboard's focus, so its tooltip, the error message, is reachable.
 */
export function CampaignStatusBadge({ status, errorMessage, neutralUnlessSent = false }: CampaignStatusBadgeProps) {
  const look = neutralUnlessSent && status !== 'SENT' ? NEUTRAL : LOOKS[status];
  if (status !== 'ERROR') {
    return (
      <Badge {...look} shape="rounded" size="large">
        {CAMPAIGN_STATUS_LABELS[status]}
      </Badge>
    );
  }
  return (
    <Tooltip content={errorMessage || SENDING_STOPPED} relationship="description">
      <Badge {...look} shape="rounded" size="large" tabIndex={0}>
        {CAMPAIGN_STATUS_LABELS.ERROR}
      </Badge>
    </Tooltip>
  );
}
