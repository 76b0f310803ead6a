import { Field, FluentProvider, Input, webLightTheme } from '@fluentui/react-components';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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
