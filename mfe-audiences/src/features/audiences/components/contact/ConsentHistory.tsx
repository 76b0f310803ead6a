import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { ConsentRecordEntry } from '@mailroom/api-client';
import { LAWFUL_BASIS_LABELS, LAWFUL_BASIS_NOT_STATED, consentSummary } from '@mailroom/api-client/labels';
import { formatDateTime } from '@mailroom/ui';
import { useState } from 'react';
import { count } from '../../../../components/words';

const useStyles = makeStyles({
  list: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
  },
  facts: { display: 'block', color: tokens.colorNeutralForeground2 },
  wording: {
    margin: `${tokens.spacingVerticalXS} 0 0`,
    padding: tokens.spacingHorizontalS,
    borderInlineStartWidth: tokens.strokeWidthThick,
    borderInlineStartStyle: 'solid',
    borderInlineStartColor: tokens.colorNeutralStroke1,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
});

/** The entry's facts after its summary, each in words: the audiences it holds for, the basis, the count, the client's address. */
function facts(entry: ConsentRecordEntry): string[] {
  const words: string[] = [];
  if (entry.audienceId === null) words.push('for every audience');
  if (entry.event === 'IMPORTED' || entry.event === 'ADDED') {
    words.push(`lawful basis: ${entry.lawfulBasis ? LAWFUL_BASIS_LABELS[entry.lawfulBasis] : LAWFUL_BASIS_NOT_STATED.toLowerCase()}`);
  } else if (entry.lawfulBasis) words.push(`lawful basis: ${LAWFUL_BASIS_LABELS[entry.lawfulBasis]}`);
  if (entry.contacts !== null) words.push(count(entry.contacts, 'contact'));
  if (entry.detail?.freshConsent === true) words.push('consent given again after an erasure');
  if (entry.clientAddress) words.push(`from ${entry.clientAddress}`);
  return words;
}

/** One entry's wording version, and the wording itself on demand (it may be long). */
function Wording({ entry }: { entry: ConsentRecordEntry }) {
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  if (entry.wording === null) return null;
  const id = `consent-wording-${entry.id}`;
  return (
    <>
      <Button appearance="transparent" size="small" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Read'} the wording{entry.consentVersion !== null ? ` (version ${entry.consentVersion})` : ''}
      </Button>
      {open && (
        <blockquote id={id} className={styles.wording}>
          {entry.wording}
        </blockquote>
      )}
    </>
  );
}

/**
 * The contact's consent history, oldest first (the consent ledger, issue 25): each entry's time, what happened in
 * words (the form or the member), its lawful basis and client address, and the wording the person agreed to.
 */
export function ConsentHistory({ entries }: { entries: ConsentRecordEntry[] }) {
  const styles = useStyles();
  if (entries.length === 0) return null;
  return (
    <ol className={styles.list} aria-label="Consent history">
      {entries.map((entry) => {
        const more = facts(entry);
        return (
          <li key={entry.id}>
            <Text weight="semibold">{formatDateTime(entry.at)}</Text> <Text>{consentSummary(entry)}</Text>
            {more.length > 0 && <Text className={styles.facts}>{more.join(' · ')}</Text>}
            <Wording entry={entry} />
          </li>
        );
      })}
    </ol>
  );
}
