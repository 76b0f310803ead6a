import { Button, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { CursorClickRegular } from '@fluentui/react-icons';
import type { Campaign } from '@mailroom/api-client';
import { QueryStateSwitch } from '@mailroom/ui';
import { useState } from 'react';
import { useCampaignLinks } from '../../api/report';
import { ClickMapDialog } from './ClickMapDialog';
import { LinksTable } from './LinksTable';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, minWidth: 0 },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
});

/** The report's third tab: the links of the email with their clicks, and the click map. */
export function ClickPerformanceTab({ campaign, sending }: { campaign: Campaign; sending: boolean }) {
  const styles = useStyles();
  const links = useCampaignLinks(campaign.id, sending);
  const [mapOpen, setMapOpen] = useState(false);
  return (
    <section className={styles.root} aria-labelledby="links-title">
      <div className={styles.header}>
        <Title2 as="h2" id="links-title">
          Links in this email
        </Title2>
        <Button icon={<CursorClickRegular />} disabled={!campaign.html || !links.data} onClick={() => setMapOpen(true)}>
          View Click Map
        </Button>
      </div>
      <QueryStateSwitch query={links} loadingLabel="Loading links..." errorTitle="Failed to load the links">
        {(data) => <LinksTable links={data} />}
      </QueryStateSwitch>
      {mapOpen && campaign.html && links.data && (
        <ClickMapDialog html={campaign.html} links={links.data} onClose={() => setMapOpen(false)} />
      )}
    </section>
  );
}
