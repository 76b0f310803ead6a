import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useSurfaceAsActiveModal } from './useSurfaceAsActiveModal';

export interface FullScreenDialogProps {
  /**
   * Whether it shows; true when left out (mount it to open it). Unmounting a Fluent dialog while it is
   * open leaves the page aria-hidden, so one that may go while open stays mounted and is driven by this.
   */
  open?: boolean;
  /** The heading, which also names the dialog. */
  title: string;
  /** The close button's name, e.g. 'Close preview'. */
  closeLabel?: string;
  /** Called on the close button and on Escape. */
  onClose: () => void;
  /** Styles of the content box; it scrolls by default, and is a column for content that fills it. */
  contentClassName?: string;
  children: ReactNode;
}

const useStyles = makeStyles({
  // 100dvh, not 100vh: on a phone the overlay ends above the browser's toolbar rather than under it.
  surface: {
    boxSizing: 'border-box',
    width: '100%',
    maxWidth: '100%',
    height: '100dvh',
    maxHeight: '100dvh',
    borderRadius: 0,
    padding: tokens.spacingHorizontalM,
  },
  // The content row takes what the title leaves, and no more, so the content scrolls inside the overlay.
  body: { height: '100%', maxHeight: '100%', gridTemplateRows: 'auto minmax(0, 1fr)' },
  content: { display: 'flex', flexDirection: 'column', minHeight: 0, overflowY: 'auto' },
});

/** A modal that covers the whole screen (the campaign preview, the click map), with a close button by its title. */
export function FullScreenDialog({ open = true, title, closeLabel = 'Close', onClose, contentClassName, children }: FullScreenDialogProps) {
  const styles = useStyles();
  const surfaceRef = useSurfaceAsActiveModal();
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface ref={surfaceRef} className={styles.surface}>
        <DialogBody className={styles.body}>
          <DialogTitle
            action={
              <DialogTrigger action="close">
                <Button appearance="subtle" aria-label={closeLabel} icon={<DismissRegular />} />
              </DialogTrigger>
            }
          >
            {title}
          </DialogTitle>
          <DialogContent className={mergeClasses(styles.content, contentClassName)}>{children}</DialogContent>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
