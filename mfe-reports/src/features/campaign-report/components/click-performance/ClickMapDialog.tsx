import { Text, makeStyles, tokens } from '@fluentui/react-components';
import type { CampaignLink } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { EmailFrame, FullScreenDialog } from '@mailroom/ui';
import { useMemo, useState } from 'react';
import { clickMapDocument } from './clickMapDocument';

const useStyles = makeStyles({
  // The email scrolls inside its frame, which fills the overlay: the overlay itself does not scroll.
  content: { rowGap: tokens.spacingVerticalS, overflowY: 'hidden' },
  hint: { color: tokens.colorNeutralForeground2 },
  frame: { flexGrow: 1, minHeight: 0, height: '100%' },
});

/**
 * 'View Click Map': a full-screen overlay of the email with each link's clicks on it (see clickMapDocument
 * for why it is built the way it is). The counts are those of the moment it opened: a refresh while the
 * campaign is sending would reload the frame under the reader's selection.
 */
export function ClickMapDialog({ html, links, onClose }: { html: string; links: CampaignLink[]; onClose: () => void }) {
  const styles = useStyles();
  const { theme } = useRemote();
  const [openedWith] = useState(links);
  const document = useMemo(() => clickMapDocument(html, openedWith, theme), [html, openedWith, theme]);
  return (
    <FullScreenDialog title="Click Map" onClose={onClose} contentClassName={styles.content}>
      <Text className={styles.hint}>Each link shows its clicks. Point at a link to highlight it; select it for its details.</Text>
      <EmailFrame className={styles.frame} html={document} title="Click map" />
    </FullScreenDialog>
  );
}
