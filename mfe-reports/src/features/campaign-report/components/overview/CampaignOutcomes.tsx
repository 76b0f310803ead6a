import { Body1, Subtitle1, makeStyles, tokens, useId } from '@fluentui/react-components';
import { QueryStateSwitch } from '@mailroom/ui';
import { useReportDomains, useReportFigures, useReportTimeline } from '../../api/report';
import { UnknownOutcomes } from '../unknown-outcomes/UnknownOutcomes';
import { DomainsTable } from './DomainsTable';
import { OverviewFigures } from './OverviewFigures';
import { OverviewTimeline } from './OverviewTimeline';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXL, minWidth: 0 },
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  note: { color: tokens.colorNeutralForeground2 },
});

/**
 * What became of the campaign's mails (an addition to the spec): the figures, the timeline and the
 * deliverability by domain. Each part loads and fails on its own; all refresh while the campaign sends.
 */
export function CampaignOutcomes({ campaignId, sending }: { campaignId: number; sending: boolean }) {
  const styles = useStyles();
  const figuresHeading = useId('figures');
  const figures = useReportFigures(campaignId, sending);
  const timeline = useReportTimeline(campaignId, sending);
  const domains = useReportDomains(campaignId, sending);
  return (
    <div className={styles.root}>
      <section className={styles.section} aria-labelledby={figuresHeading}>
        <Subtitle1 as="h2" id={figuresHeading}>
          Results
        </Subtitle1>
        <QueryStateSwitch query={figures} loadingLabel="Loading the figures..." errorTitle="Could not load the figures">
          {(data) =>
            data.sendingStartedAt === null && data.sent === 0 ? (
              <Body1 className={styles.note}>Not sent yet: the figures, the timeline and the domains appear once sending starts.</Body1>
            ) : (
              <>
                {data.openedHuman + data.openedMachine === 0 && <Body1 className={styles.note}>No opens yet.</Body1>}
                <OverviewFigures figures={data} />
                {/* Beside the Unknown figure, what it means and 'Resend unconfirmed', as on Email Performance. */}
                <UnknownOutcomes campaignId={campaignId} />
              </>
            )
          }
        </QueryStateSwitch>
      </section>
      <QueryStateSwitch query={timeline} loadingLabel="Loading the timeline..." errorTitle="Could not load the timeline">
        {(data) => <OverviewTimeline timeline={data} />}
      </QueryStateSwitch>
      <QueryStateSwitch query={domains} loadingLabel="Loading the domains..." errorTitle="Could not load the domains">
        {(data) => <DomainsTable domains={data.domains} />}
      </QueryStateSwitch>
    </div>
  );
}
