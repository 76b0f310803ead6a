import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner } from '@fluentui/react-components';
import type { FormEvent, ReactNode } from 'react';
import { useSurfaceAsActiveModal } from './useSurfaceAsActiveModal';

export interface FormDialogProps {
  /**
   * Whether it shows; true when left out (mount it to open it). A dialog closed by unmounting it while
   * open leaves the page hidden from assistive technology (Fluent's focus tooling keeps aria-hidden on
   * it), so a dialog that closes itself on success stays mounted and is driven by this.
   */
  open?: boolean;
  title: string;
  /** The submit button's text, e.g. 'Rename', 'Send test'. */
  submitLabel: string;
  /**
   * A request is in flight: submit waits with a spinner, Cancel, Escape and a click outside do nothing,
   * and a second submit is ignored, so one request answers before the dialog closes or sends again.
   */
  busy: boolean;
  /** Submit is disabled for another reason too (e.g. a blank name). */
  submitDisabled?: boolean;
  /** Enter in a field or the submit button; not called while busy. */
  onSubmit: () => void;
  /** Cancel, Escape or a click outside. */
  onClose: () => void;
  contentClassName?: string;
  /** The fields. */
  children: ReactNode;
}

/** A modal form: a title, fields, Cancel and a submit button. Mount it to open it, or drive `open`. */
export function FormDialog({
  open = true,
  title,
  submitLabel,
  busy,
  submitDisabled = false,
  onSubmit,
  onClose,
  contentClassName,
  children,
}: FormDialogProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  const surfaceRef = useSurfaceAsActiveModal();
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !busy && onClose()}>
      <DialogSurface ref={surfaceRef}>
        {/* The fields say what is wrong themselves: the browser's own validation bubbles stay off. */}
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={contentClassName}>{children}</DialogContent>
            <DialogActions>
              <Button appearance="secondary" disabled={busy} onClick={onClose}>
                Cancel
              </Button>
              <Button
                type="submit"
                appearance="primary"
                disabled={busy || submitDisabled}
                icon={busy ? <Spinner size="tiny" /> : undefined}
              >
                {submitLabel}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
