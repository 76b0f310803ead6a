import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EditableTitle } from './EditableTitle';
import { NameDialog } from './NameDialog';

const inFluent = (ui: React.ReactElement) => render(<FluentProvider theme={webLightTheme}>{ui}</FluentProvider>);
const LABELS = { edit: 'Edit name', input: 'Name...', save: 'Save', cancel: 'Cancel' };

describe('EditableTitle', () => {
  it('saves the trimmed name on Enter and leaves editing once saved', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(async () => {});
    inFluent(<EditableTitle name="Welcome" labels={LABELS} onSave={onSave} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    const input = screen.getByRole('textbox', { name: 'Name...' }) as HTMLInputElement;
    expect(input.value).toBe('Welcome');
    await user.clear(input);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(input, '   {Enter}');
    expect(onSave).not.toHaveBeenCalled();
    await user.type(input, 'Spring news  {Enter}');
    expect(onSave).toHaveBeenCalledWith('Spring news');
    await waitFor(() => expect(screen.queryByRole('textbox')).toBeNull());
  });

  it('cancels with Escape or Cancel, and stays in editing when the save fails', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.reject(new Error('no')));
    inFluent(<EditableTitle name="Welcome" labels={LABELS} onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    await user.type(screen.getByRole('textbox', { name: 'Name...' }), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith('Welcome!');
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Name...' }) as HTMLInputElement).disabled).toBe(false));
    expect((screen.getByRole('textbox', { name: 'Name...' }) as HTMLInputElement).value).toBe('Welcome!');
  });
});

describe('NameDialog', () => {
  const props = { title: 'Rename template', label: 'New name', submitLabel: 'Rename', busy: false, blankMessage: 'Fill your name' };

  it("'mark': a blank name is marked with the message and not submitted", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    inFluent(<NameDialog {...props} blankName="mark" initialName="Old" onSubmit={onSubmit} onClose={() => {}} />);
    const input = screen.getByLabelText(/New name/);
    await user.clear(input);
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Fill your name')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(input, ' New {Enter}');
    expect(onSubmit).toHaveBeenCalledWith('New');
  });

  it("'disable': submit is disabled while blank; the error is shown and Cancel closes", async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    inFluent(<NameDialog {...props} blankName="disable" error="Name taken" onSubmit={() => {}} onClose={onClose} />);
    expect((screen.getByRole('button', { name: 'Rename' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Name taken')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });
});
