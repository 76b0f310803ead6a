import { Field, FluentProvider, Input, webLightTheme } from '@fluentui/react-components';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';
import { FormDialog } from './FormDialog';
import { FullScreenDialog } from './FullScreenDialog';

const inFluent = (ui: React.ReactElement) => render(<FluentProvider theme={webLightTheme}>{ui}</FluentProvider>);

describe('FormDialog', () => {
  const form = (props: { busy: boolean; submitDisabled?: boolean; onSubmit: () => void; onClose: () => void }) => (
    <FluentProvider theme={webLightTheme}>
      <FormDialog title="Send test email" submitLabel="Send test" {...props}>
        <Field label="Email addresses">
          <Input />
        </Field>
      </FormDialog>
    </FluentProvider>
  );

  it('submits on Enter and on its button, and closes on Cancel and Escape', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    const onClose = vi.fn();
    render(form({ busy: false, onSubmit, onClose }));
    expect(screen.getByRole('dialog', { name: 'Send test email' })).toBeTruthy();
    await user.type(screen.getByLabelText('Email addresses'), 'ann@example.org{Enter}');
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('while busy, neither submits again nor closes', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    const onClose = vi.fn();
    render(form({ busy: true, onSubmit, onClose }));
    expect((screen.getByRole('button', { name: 'Send test' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Email addresses'), 'ann@example.org{Enter}');
    await user.keyboard('{Escape}');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('disables submit when the caller says so', () => {
    render(form({ busy: false, submitDisabled: true, onSubmit: () => {}, onClose: () => {} }));
    expect((screen.getByRole('button', { name: 'Send test' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('FullScreenDialog', () => {
  it('is named by its title and closes on its close button and on Escape', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    inFluent(
      <FullScreenDialog title="Preview Campaign" closeLabel="Close preview" onClose={onClose}>
        <p>the email</p>
      </FullScreenDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Preview Campaign' });
    expect(dialog.textContent).toContain('the email');
    await user.click(screen.getByRole('button', { name: 'Close preview' }));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('a dialog opened again right after one closed', () => {
  /** A button that opens a dialog, the ways the screens do: mounted to open it, or `open` toggled. */
  function Opener({ dialog, mountToOpen }: { dialog: 'confirm' | 'form'; mountToOpen: boolean }) {
    const [open, setOpen] = useState(false);
    const close = () => setOpen(false);
    const shown = open || !mountToOpen;
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Open
        </button>
        {shown && dialog === 'confirm' && (
          <ConfirmDialog open={open} title="Resend unconfirmed emails" confirmLabel="Resend" onConfirm={close} onCancel={close}>
            Send them again?
          </ConfirmDialog>
        )}
        {shown && open && dialog === 'form' && (
          <FormDialog title="Resend unconfirmed emails" submitLabel="Resend" busy={false} onSubmit={close} onClose={close}>
            <Field label="Name">
              <Input />
            </Field>
          </FormDialog>
        )}
      </>
    );
  }

  it.each([
    ['a confirmation mounted to open it', 'confirm', true],
    ['a confirmation opened by its open property', 'confirm', false],
    ['a form dialog mounted to open it', 'form', true],
  ] as const)('%s: no aria-hidden is left on it from the one just closed, so it can be read', async (_, dialog, mountToOpen) => {
    // Tabster settles aria-hidden on timers: the second dialog opens before they run, as a quick keyboard user's would.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      inFluent(<Opener dialog={dialog} mountToOpen={mountToOpen} />);
      const role = dialog === 'confirm' ? 'alertdialog' : 'dialog';
      await user.click(screen.getByRole('button', { name: 'Open' }));
      await user.click(within(screen.getByRole(role, { name: 'Resend unconfirmed emails' })).getByRole('button', { name: 'Cancel' }));
      await user.click(screen.getByRole('button', { name: 'Open' }));
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(within(screen.getByRole(role, { name: 'Resend unconfirmed emails' })).getByRole('button', { name: 'Resend' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
