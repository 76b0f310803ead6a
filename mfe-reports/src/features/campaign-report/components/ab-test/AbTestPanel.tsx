import {
  Body1,
  Button,
  Subtitle1,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
  useId,
} from '@fluentui/react-components';
import { errorMessage, type AbTest, type AbTestMeasure, type AbTestVerdict } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { ConfirmDialog, formatDateTime, ScrollingTable } from '@mailroom/ui';
import { useState } from 'react';
import { useAbTest, usePickAbTestWinner } from '../../api/abTest';
import { formatShare } from '../click-performance/shares';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, minWidth: 0 },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  winner: { fontWeight: tokens.fontWeightSemibold },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  note: { color: tokens.colorNeutralForeground2 },
});

/** A variant's letter as the screens show it: A, B, C, D. */
export const variantLetter = (variant: number): string => String.fromCharCode(65 + variant);
const MEASURE: Record<AbTestMeasure, { noun: string; none: string }> = {
  PEOPLE_OPENS: { noun: "people's opens", none: 'No person has opened any variant' },
  PEOPLE_CLICKS: { noun: "people's clicks", none: 'No person has clicked in any variant' },
};
const percent = (confidence: number) => `${(confidence * 100).toFixed(1)} %`;

/** What a variant changes, in words. */
function changes(variant: AbTest['variants'][number]): string {
  const parts = [
    variant.subject !== null && `subject “${variant.subject}”`,
    variant.previewText !== null && `preview text “${variant.previewText}”`,
    variant.fromName !== null && `sender name “${variant.fromName}”`,
    variant.templateId !== null && `template ${variant.templateName ? `“${variant.templateName}”` : `#${variant.templateId}`}`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.join(', ');
}

/**
 * The verdict in words: which variant leads on people's opens or clicks, at what confidence (a two-proportion
 * test), and what goes. `decided`: said of the decision taken; otherwise of the figures so far.
 */
export function verdictWords(verdict: AbTestVerdict, test: Pick<AbTest, 'measure' | 'defaultVariant'>, decided: boolean): string {
  const { noun, none } = MEASURE[test.measure];
  const fallback = `the default, variant ${variantLetter(test.defaultVariant)}, ${decided ? 'went' : 'would go'} to the rest`;
  switch (verdict.rule) {
    case 'SIGNIFICANT':
      return `Variant ${variantLetter(verdict.leader!)} leads on ${noun} with ${percent(verdict.confidence!)} confidence (a two-proportion test): it ${decided ? 'won' : 'would win'}.`;
    case 'NOT_SIGNIFICANT':
      return `Variant ${variantLetter(verdict.leader!)} leads on ${noun}, but with ${percent(verdict.confidence!)} confidence, short of 95 %: ${fallback}.`;
    case 'TIE':
      return `The leading variants tie on ${noun}: ${fallback}.`;
    case 'NO_DATA':
      return `${none} yet (machines' opens and clicks do not count): ${fallback}.`;
    case 'MEMBER':
      return verdict.leader === null
        ? 'Picked by a member before the wait ended, with no lead on ' + `${noun} then.`
        : `Picked by a member before the wait ended; the rule's leader then was variant ${variantLetter(verdict.leader)} on ${noun}${
            verdict.confidence === null ? '' : ` at ${percent(verdict.confidence)} confidence`
          }.`;
  }
}

const COLUMNS = [
  'Variant',
  'What it changes',
  'Recipients',
  'Sent',
  'Opened by people',
  'Opened by machines only',
  'Clicked by people',
  'Clicked by machines only',
];

/**
 * The report's A/B test (issue 28): each variant's figures, people and machines apart; where the test is (testing
 * until a time, or decided); the verdict and its confidence; and, while testing, a member's pick of the winner.
 * Nothing shows for a campaign without a test.
 */
export function AbTestPanel({ campaignId }: { campaignId: number }) {
  const test = useAbTest(campaignId);
  if (!test.data) return null;
  return <AbTestDetails campaignId={campaignId} test={test.data} />;
}

function AbTestDetails({ campaignId, test }: { campaignId: number; test: AbTest }) {
  const styles = useStyles();
  const headingId = useId('ab-test');
  const { notify } = useRemote();
  const pick = usePickAbTestWinner(campaignId);
  const [picking, setPicking] = useState<number | null>(null);
  const { noun } = MEASURE[test.measure];

  const confirm = async () => {
    if (picking === null) return;
    try {
      await pick.mutateAsync(picking);
      notify('success', `Variant ${variantLetter(picking)} is being sent to the rest of the recipients.`);
    } catch (error) {
      notify('error', errorMessage(error, 'Failed to pick the winner'));
    } finally {
      setPicking(null);
    }
  };

  return (
    <section className={styles.root} aria-labelledby={headingId}>
      <Subtitle1 as="h2" id={headingId}>
        A/B test
      </Subtitle1>
      <Body1>
        {test.phase === 'DRAFT' &&
          `${test.variants.length} variants to ${test.testShare} % of the recipients once sent; the winner by ${noun} goes to the rest ${test.waitHours} h later.`}
        {test.phase === 'TESTING' &&
          `Testing on ${test.testShare} % of the recipients. The winner by ${noun} is chosen at ${formatDateTime(test.endsAt)} and sent to the rest.`}
        {test.phase === 'DECIDED' &&
          `Variant ${variantLetter(test.winner!)} won${test.decidedBy === 'MEMBER' ? ', picked by a member,' : ''} and was sent to the rest on ${formatDateTime(test.decidedAt)}.`}
      </Body1>
      {test.phase === 'DECIDED' && test.verdict && <Body1>{verdictWords(test.verdict, test, true)}</Body1>}
      {test.phase === 'TESTING' && test.current && <Body1>So far: {verdictWords(test.current, test, false)}</Body1>}
      <ScrollingTable aria-label="A/B test variants" size="small">
        <TableHeader>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableHeaderCell key={column}>{column}</TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {test.variants.map((variant, n) => {
            const figures = test.figures.find((f) => f.variant === n);
            const sent = figures?.sent ?? 0;
            const cells = figures
              ? [
                  String(figures.recipients),
                  String(sent),
                  `${figures.openedHuman} (${formatShare(figures.openedHuman, sent)})`,
                  String(figures.openedMachine),
                  `${figures.clickedHuman} (${formatShare(figures.clickedHuman, sent)})`,
                  String(figures.clickedMachine),
                ]
              : ['0', '0', '0', '0', '0', '0'];
            return (
              <TableRow key={n}>
                <TableCell className={test.winner === n ? styles.winner : undefined}>
                  {`Variant ${variantLetter(n)}`}
                  {test.winner === n && ' (winner)'}
                  {test.winner === null && test.defaultVariant === n && ' (default)'}
                </TableCell>
                <TableCell>{changes(variant)}</TableCell>
                {cells.map((value, column) => (
                  <TableCell key={column} className={styles.number}>
                    {value}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </ScrollingTable>
      <Body1 className={styles.note}>
        Machines (privacy proxies that fetch every image, link scanners) are counted apart and never decide the winner.
      </Body1>
      {test.phase === 'TESTING' && (
        <div className={styles.actions}>
          {test.variants.map((_, n) => (
            <Button key={n} disabled={pick.isPending} onClick={() => setPicking(n)}>
              Send variant {variantLetter(n)} to the rest now
            </Button>
          ))}
        </div>
      )}
      <ConfirmDialog
        open={picking !== null}
        title="Pick the winner"
        confirmLabel="Send to the rest"
        busy={pick.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setPicking(null)}
      >
        {picking !== null &&
          `Variant ${variantLetter(picking)} will be sent to every recipient not in the test, and the test ends. Send it now?`}
      </ConfirmDialog>
    </section>
  );
}
