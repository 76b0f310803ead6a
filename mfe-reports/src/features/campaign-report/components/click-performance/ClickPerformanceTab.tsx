import { Button, Field, Select, Spinner, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { CursorClickRegular } from '@fluentui/react-icons';
import type { AbTest, Campaign } from '@mailroom/api-client';
import { QueryStateSwitch } from '@mailroom/ui';
import { useState } from 'react';
import { useAbTest, useVariantClicks } from '../../api/abTest';
import { useCampaignLinks } from '../../api/report';
import { variantLetter } from '../ab-test/AbTestPanel';
import { ClickMapDialog } from './ClickMapDialog';
import { LinksTable } from './LinksTable';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, minWidth: 0 },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  picker: { maxWidth: '320px' },
  hint: { color: tokens.colorNeutralForeground2 },
});

/** Which links the tab shows: the campaign's own (every recipient's clicks), or one A/B test variant's. */
type LinksView = 'all' | number;

/** A template variant has links of its own: a view of all variants at once would mix two mails' links. */
const hasTemplateVariants = (test: AbTest | null): boolean => !!test && test.variants.some((variant) => variant.templateId !== null);

/** The view the tab opens with: every recipient's clicks, or, when the variants' mails differ, the winner's (else A's). */
function firstView(test: AbTest | null): LinksView {
  return hasTemplateVariants(test) ? (test!.winner ?? 0) : 'all';
}

/**
 * The report's third tab: the links of the email with their clicks, and the click map. A campaign with an
 * A/B test (issue 28) gets a variant picker: each variant's links with its own recipients' clicks, a template
 * variant's links never mixed into another's list or map.
 */
export function ClickPerformanceTab({ campaign, sending }: { campaign: Campaign; sending: boolean }) {
  const styles = useStyles();
  const abTest = useAbTest(campaign.id);
  const test = abTest.data ?? null;
  const [picked, setPicked] = useState<LinksView | null>(null);
  // Undecided until the test is read, so a variant's view does not first fetch the campaign's links.
  const view: LinksView | null = abTest.isPending ? null : test === null ? 'all' : (picked ?? firstView(test));
  const ownLinks = useCampaignLinks(campaign.id, sending, view === 'all');
  const variant = useVariantClicks(campaign.id, typeof view === 'number' ? view : 0, sending, typeof view === 'number');
  const [mapOpen, setMapOpen] = useState(false);

  const html = typeof view === 'number' ? (variant.data?.html ?? null) : campaign.html;
  const links = typeof view === 'number' ? variant.data?.links : ownLinks.data;

  return (
    <section className={styles.root} aria-labelledby="links-title">
      <div className={styles.header}>
        <Title2 as="h2" id="links-title">
          Links in this email
        </Title2>
        <Button icon={<CursorClickRegular />} disabled={!html || !links} onClick={() => setMapOpen(true)}>
          View Click Map
        </Button>
      </div>
      {test && (
        <Field className={styles.picker} label="A/B test variant">
          <Select value={String(view ?? 'all')} onChange={(_, data) => setPicked(data.value === 'all' ? 'all' : Number(data.value))}>
            {!hasTemplateVariants(test) && <option value="all">All variants</option>}
            {test.variants.map((_, n) => (
              <option key={n} value={String(n)}>
                {`Variant ${variantLetter(n)}${test.winner === n ? ' (winner)' : ''}`}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {typeof view === 'number' && (
        <Text className={styles.hint}>
          The links of the email variant {variantLetter(view)}&apos;s recipients got, with their clicks only.
        </Text>
      )}
      {view === null ? (
        <Spinner label="Loading links..." />
      ) : typeof view === 'number' ? (
        <QueryStateSwitch query={variant} loadingLabel="Loading links..." errorTitle="Failed to load the links">
          {(data) => <LinksTable links={data.links} />}
        </QueryStateSwitch>
      ) : (
        <QueryStateSwitch query={ownLinks} loadingLabel="Loading links..." errorTitle="Failed to load the links">
          {(data) => <LinksTable links={data} />}
        </QueryStateSwitch>
      )}
      {/* Kept mounted and driven by open: see ClickMapDialog. */}
      <ClickMapDialog open={mapOpen} html={html} links={links} onClose={() => setMapOpen(false)} />
    </section>
  );
}
