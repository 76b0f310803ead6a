import { Spinner, Tab, TabList, Text, Title1, makeStyles, tokens, useId } from '@fluentui/react-components';
import { followUpRecipientsLabel } from '@mailroom/api-client/labels';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { parseRouteId, RouterLink } from '@mailroom/ui';
import { useParams, useSearchParams } from 'react-router-dom';
import { useCampaign, useOverviewStats } from '../api/report';
import { CampaignNotFound } from '../components/CampaignNotFound';
import { DeliveryEventsNotice } from '../components/delivery-events/DeliveryEventsNotice';
import { ClickPerformanceTab } from '../components/click-performance/ClickPerformanceTab';
import { EmailPerformanceTab } from '../components/email-performance/EmailPerformanceTab';
import { FollowUpButton } from '../components/follow-up/FollowUpButton';
import { OverviewTab } from '../components/overview/OverviewTab';

const TABS = [
  { value: 'overview', label: 'Overview' },
  { value: 'email-performance', label: 'Email Performance' },
  { value: 'click-performance', label: 'Click Performance' },
] as const;

type ReportTab = (typeof TABS)[number]['value'];

const tabOf = (raw: string | null): ReportTab => TABS.find((tab) => tab.value === raw)?.value ?? 'overview';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, minWidth: 0 },
  title: { overflowWrap: 'anywhere' },
  heading: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  // The tabs wrap onto a second line where they do not fit (390 px), never cut off at the edge.
  tabs: { flexWrap: 'wrap' },
  panel: { minWidth: 0 },
});

/**
 * /campaigns/reports/{id}: the campaign's name and three tabs. The open tab is kept in the address
 * (?tab=...), so a reload or a shared link lands on it.
 */
export function CampaignReportRoute() {
  const styles = useStyles();
  const tabIds = useId('report-tab');
  const id = parseRouteId(useParams().id);
  const campaign = useCampaign(id ?? 0);
  const overview = useOverviewStats(id ?? 0);
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabOf(searchParams.get('tab'));

  if (id !== null && (campaign.isPending || overview.isPending)) return <Spinner label="Loading report..." />;

  if (id === null || !campaign.data || !overview.data) {
    return (
      <CampaignNotFound
        error={id === null ? null : (campaign.error ?? overview.error)}
        onRetry={() => {
          void campaign.refetch();
          void overview.refetch();
        }}
      />
    );
  }

  const sending = campaign.data.status === 'SENDING';
  const { followUp } = campaign.data;
  return (
    <section className={styles.root}>
      <RouterLink to={REMOTES.campaigns.basePath}>Back to Campaigns</RouterLink>
      <div className={styles.heading}>
        <Title1 as="h1" className={styles.title}>
          {campaign.data.name}
        </Title1>
        {campaign.data.status === 'SENT' && <FollowUpButton campaign={campaign.data} />}
      </div>
      {followUp && (
        // A follow-up went to some of its original's contacts: the original and the rule, as its list row says.
        <Text as="p" className={styles.title}>
          Follow-up:{' '}
          {followUp.campaignId === null ? (
            followUpRecipientsLabel(followUp.recipients, followUp.campaignName)
          ) : (
            <RouterLink to={`${REMOTES.reports.basePath}/${followUp.campaignId}`} inline>
              {followUpRecipientsLabel(followUp.recipients, followUp.campaignName)}
            </RouterLink>
          )}
        </Text>
      )}
      <TabList
        className={styles.tabs}
        selectedValue={tab}
        onTabSelect={(_, data) =>
          setSearchParams(
            (current) => {
              const next = new URLSearchParams(current);
              next.set('tab', String(data.value));
              return next;
            },
            { replace: true },
          )
        }
      >
        {TABS.map(({ value, label }) => (
          <Tab key={value} id={`${tabIds}-${value}`} value={value}>
            {label}
          </Tab>
        ))}
      </TabList>
      <DeliveryEventsNotice />
      <div className={styles.panel} role="tabpanel" aria-labelledby={`${tabIds}-${tab}`}>
        {tab === 'overview' && <OverviewTab campaign={campaign.data} stats={overview.data} />}
        {tab === 'email-performance' && <EmailPerformanceTab campaignId={id} sending={sending} />}
        {tab === 'click-performance' && <ClickPerformanceTab campaign={campaign.data} sending={sending} />}
      </div>
    </section>
  );
}
