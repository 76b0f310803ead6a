import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { CampaignLink } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { useMemo, useState } from 'react';
import { EmailFrame } from '../EmailFrame';
import { clickMapDocument } from './clickMapDocument';

const useStyles = makeStyles({
  surface: {
    boxSizing: 'border-box',
    width: '100%',
    maxWidth: '100%',
    height: '100dvh',
    maxHeight: '100dvh',
    borderRadius: 0,
    padding: tokens.spacingHorizontalM,
  },
  body: { height: '100%', maxHeight: '100%', gridTemplateRows: 'auto minmax(0, 1fr)' },
  content: { display: 'flex', flexDirection: 'column', minHeight: 0, gap: tokens.spacingVerticalS, overflow: 'hidden' },
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
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody className={styles.body}>
          <DialogTitle
            action={
              <DialogTrigger action="close">
                <Button appearance="subtle" aria-label="Close" icon={<DismissRegular />} />
              </DialogTrigger>
            }
          >
            Click Map
          </DialogTitle>
          <DialogContent className={styles.content}>
            <Text className={styles.hint}>Each link shows its clicks. Point at a link to highlight it; select it for its details.</Text>
            <EmailFrame className={styles.frame} html={document} title="Click map" />
          </DialogContent>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
