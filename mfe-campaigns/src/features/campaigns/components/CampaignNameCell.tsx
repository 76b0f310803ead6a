import { makeStyles } from '@fluentui/react-components';
import type { CampaignSummary } from '@mailroom/api-client';
import { followUpRecipientsLabel } from '@mailroom/api-client/labels';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { useRemote } from '@mailroom/mf-contract/react';
import { DetailLine, LastEdited, NameWithDetails, RouterLink, formatDateTime } from '@mailroom/ui';

const useStyles = makeStyles({
  root: { minWidth: '200px' },
});

/**
 * Whether a campaign opens in its editor: a draft, a scheduled one (read-only, with 'Cancel schedule'), or one awaiting
 * approval (read-only, where another member reads it and approves or declines it).
 */
export const opensInEditor = (status: CampaignSummary['status']): boolean =>
  status === 'DRAFT' || status === 'SCHEDULED' || status === 'AWAITING_APPROVAL';

/** Where a campaign's name leads: its editor until it starts sending, its report afterwards. */
export function useCampaignHref(campaign: Pick<CampaignSummary, 'id' | 'status'>): string {
  const { basePath } = useRemote();
  return opensInEditor(campaign.status) ? `${basePath}/edit/${campaign.id}` : `${REMOTES.reports.basePath}/${campaign.id}`;
}

/** The name (to the editor or the report), its audience, for a sent one its date and recipients, and who last edited it. */
export function CampaignNameCell({ campaign }: { campaign: CampaignSummary }) {
  const styles = useStyles();
  const href = useCampaignHref(campaign);
  const sent = !opensInEditor(campaign.status);
  return (
    <NameWithDetails name={campaign.name} to={href} className={styles.root}>
      {campaign.followUp ? (
        // A follow-up goes to some of its original's contacts, not to the audience: it names the original and the rule.
        <DetailLine>
          To:{' '}
          {campaign.followUp.campaignId === null ? (
            followUpRecipientsLabel(campaign.followUp.recipients, campaign.followUp.campaignName)
          ) : (
            <RouterLink to={`${REMOTES.reports.basePath}/${campaign.followUp.campaignId}`} inline>
              {followUpRecipientsLabel(campaign.followUp.recipients, campaign.followUp.campaignName)}
            </RouterLink>
          )}
        </DetailLine>
      ) : (
        campaign.audienceId !== null && (
          <DetailLine>
            To:{' '}
            <RouterLink to={`${REMOTES.audiences.basePath}/${campaign.audienceId}`} inline>
              {campaign.audienceName ?? `Audience ${campaign.audienceId}`}
            </RouterLink>
            {/* A segment of the audience (issue 26) is named after it, as the editor's To section names it. */}
            {campaign.segment && ` – ${campaign.segment.name}`}
          </DetailLine>
        )
      )}
      {sent && (
        <>
          {campaign.deliveryDate && <DetailLine>{formatDateTime(campaign.deliveryDate)}</DetailLine>}
          <DetailLine>
            {campaign.jobsSent} / {campaign.contactCount} recipients ({campaign.jobsFailed} failed)
          </DetailLine>
        </>
      )}
      <LastEdited item={campaign} />
    </NameWithDetails>
  );
}
