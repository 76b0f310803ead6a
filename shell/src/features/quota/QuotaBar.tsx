import { useState } from 'react';
import { Badge, Button, MessageBar, MessageBarBody, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronDownRegular, ChevronUpRegular } from '@fluentui/react-icons';
import { cappedPercentage, formatPercentage, quotaLevel } from './quota';
import { useQuota } from './useQuota';
import { roleLabel, type Role } from '@mailroom/mf-contract/roles';

const useStyles = makeStyles({
  bar: {
    backgroundColor: tokens.colorNeutralBackground2,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
  },
  row: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
  progress: { flexGrow: 1, minWidth: '120px', display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  details: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXL, paddingTop: tokens.spacingVerticalXS },
  paused: { marginBottom: tokens.spacingVerticalS },
});

/** While the message broker is away (the quota call's sendingAndImportsPaused, an addition: docs/decisions/sending.md). */
export const SENDING_AND_IMPORTS_PAUSED =
  'Sending and imports are paused: the message broker is unavailable. Nothing was lost; campaigns already sending go on by themselves once it is back.';

/**
 * The daily sending quota, kept sticky under the top of the page by the layout (docs/product.md, Routes and screens, Shell),
 * and, above its figures, whether sending and imports are paused.
 */
export function QuotaBar({ role }: { role?: Role }) {
  const styles = useStyles();
  const quota = useQuota();
  const [expanded, setExpanded] = useState(false);

  let content;
  if (quota.isPending) {
    content = <Text>Loading quota information...</Text>;
  } else if (quota.isError) {
    content = (
      <MessageBar intent="error" role="alert">
        <MessageBarBody>Failed to fetch quota information</MessageBarBody>
      </MessageBar>
    );
  } else {
    const { emailsSent, remainingSends, quotaUsedPercentage, maxSendRate, max24HourSend, sendingAndImportsPaused } = quota.data;
    const level = quotaLevel(quotaUsedPercentage);
    content = (
      <>
        {sendingAndImportsPaused && (
          <MessageBar intent="warning" role="status" className={styles.paused}>
            <MessageBarBody>{SENDING_AND_IMPORTS_PAUSED}</MessageBarBody>
          </MessageBar>
        )}
        <div className={styles.row}>
          {role && (
            <Badge appearance="tint" color="informative" size="large">
              Your role: {roleLabel(role)}
            </Badge>
          )}
          <Badge appearance="tint" color="brand" size="large">
            Sent: {emailsSent}
          </Badge>
          <Badge appearance="tint" color="informative" size="large">
            Remaining: {remainingSends}
          </Badge>
          <div className={styles.progress} data-quota-level={level}>
            <ProgressBar aria-label="Quota used" value={cappedPercentage(quotaUsedPercentage)} max={100} color={level} thickness="large" />
            <Text weight="semibold">{formatPercentage(quotaUsedPercentage)}</Text>
          </div>
          <Button
            appearance="subtle"
            size="small"
            aria-expanded={expanded}
            aria-controls="quota-details"
            icon={expanded ? <ChevronUpRegular /> : <ChevronDownRegular />}
            iconPosition="after"
            onClick={() => setExpanded((open) => !open)}
          >
            Quota details
          </Button>
        </div>
        {expanded && (
          <div id="quota-details" className={styles.details}>
            <Text>Max send rate: {maxSendRate} per second</Text>
            <Text>24-hour limit: {max24HourSend}</Text>
          </div>
        )}
      </>
    );
  }

  return (
    <section aria-label="Daily sending quota" className={styles.bar}>
      {content}
    </section>
  );
}
