import { Badge, makeStyles, Tooltip, type BadgeProps } from '@fluentui/react-components';
import type { CampaignStatus } from '@mailroom/api-client';
import { CAMPAIGN_STATUS_LABELS } from '@mailroom/api-client/labels';
import { formatDateTime } from './format';

type Look = Pick<BadgeProps, 'appearance' | 'color'>;

/** docs/product.md, Campaigns list: Sending a warning, Sent green, Error outlined in red; a draft and a scheduled one tinted. */
const LOOKS: Record<CampaignStatus, Look> = {
  DRAFT: { appearance: 'tint', color: 'informative' },
  SCHEDULED: { appearance: 'tint', color: 'brand' },
  AWAITING_APPROVAL: { appearance: 'tint', color: 'important' },
  SENDING: { appearance: 'filled', color: 'warning' },
  SENT: { appearance: 'filled', color: 'success' },
  ERROR: { appearance: 'outline', color: 'danger' },
};

/** The editor's chip: 'In the editor the other statuses are neutral' (every one but Sent). */
const NEUTRAL: Look = { appearance: 'tint', color: 'informative' };

/** Said when a campaign in ERROR carries no message of its own. */
export const SENDING_STOPPED = 'Sending stopped';

/**
 * What the list and the report say of a SENDING campaign waiting for SES's daily quota (issue 28):
 * the time it resumes, to the minute in the member's local time as the screens' other times. It is
 * about a day ahead (SES's rolling 24 hours), so the hour and minute are what a member needs.
 */
export const quotaPausedText = (until: string | Date, pausedFor?: PausedFor | null): string =>
  pausedFor === 'WARM_UP'
    ? `Paused: warm-up volume for today reached, resumes at ${formatDateTime(until, 'HH:mm')}`
    : `Paused: daily quota reached, resumes at ${formatDateTime(until, 'HH:mm')}`;

/**
 * Why a SENDING campaign is paused (`pausedFor`, issue 28): SES's daily quota, or the warm-up plan's
 * volume for the day (it resumes at the plan's next day, by itself).
 */
export type PausedFor = 'DAILY_QUOTA' | 'WARM_UP';

const useStyles = makeStyles({
  // The sentence may wrap in a narrow column (390 px) rather than overflow it.
  paused: { height: 'auto', minHeight: '24px', whiteSpace: 'normal', textAlign: 'start' },
});

export interface CampaignStatusBadgeProps {
  status: CampaignStatus;
  /** Why sending stopped: the ERROR chip's tooltip. */
  errorMessage?: string | null | undefined;
  /** The editor's look: Sent green, every other status neutral. */
  neutralUnlessSent?: boolean;
  /** A SENDING campaign paused at the daily quota until then (`quotaPausedUntil`): the chip says so. */
  quotaPausedUntil?: string | null | undefined;
  /** Why it is paused (`pausedFor`); the daily quota when not said. */
  pausedFor?: PausedFor | null | undefined;
}

/**
 * A campaign's status chip, one for every screen that shows one (the campaigns list, the editor, the
 * report). The ERROR chip takes the keyboard's focus, so its tooltip, the error message, is reachable.
 */
export function CampaignStatusBadge({
  status,
  errorMessage,
  neutralUnlessSent = false,
  quotaPausedUntil,
  pausedFor,
}: CampaignStatusBadgeProps) {
  const styles = useStyles();
  const look = neutralUnlessSent && status !== 'SENT' ? NEUTRAL : LOOKS[status];
  if (status === 'SENDING' && quotaPausedUntil) {
    // Still sending as far as the contract goes, but nothing leaves until then: not the Sending look.
    return (
      <Badge appearance="tint" color="warning" shape="rounded" size="large" className={styles.paused}>
        {quotaPausedText(quotaPausedUntil, pausedFor)}
      </Badge>
    );
  }
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
