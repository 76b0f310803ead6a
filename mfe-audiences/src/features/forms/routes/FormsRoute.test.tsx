import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { audience, createFakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const setup = (publicName: string | null = null) => {
  const api = createFakeApi({ audiences: [audience({ id: 4, name: 'Tree news (members)', publicName })] });
  return { api, ...renderApp('/audiences/4/forms', api) };
};

describe("Sign-up forms: the audience's public name (issue 25)", () => {
  it('saves the trimmed name shown to subscribers, and clears it when emptied', async () => {
    const { api, user, notify } = setup();
    const input = await screen.findByRole('textbox', { name: /Name shown to subscribers in their preferences/ });
    const save = screen.getByRole('button', { name: 'Save' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await user.type(input, '  Tree news  ');
    await user.click(save);
    await waitFor(() => expect(api.calls('PATCH', '/api/audiences/4')).toHaveLength(1));
    expect(api.calls('PATCH', '/api/audiences/4')[0]!.body).toEqual({ publicName: 'Tree news' });
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'The public name is saved'));
    expect((input as HTMLInputElement).value).toBe('Tree news');

    await user.clear(input);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PATCH', '/api/audiences/4')).toHaveLength(2));
    expect(api.calls('PATCH', '/api/audiences/4')[1]!.body).toEqual({ publicName: null });
    await waitFor(() => expect(notify).toHaveBeenCalledWith('success', 'The public name is cleared'));
  });

  it('shows the saved name, and refuses more than 100 characters before asking the API', async () => {
    const { api, user } = setup('Events');
    const input = await screen.findByRole('textbox', { name: /Name shown to subscribers/ });
    expect((input as HTMLInputElement).value).toBe('Events');
    await user.clear(input);
    await user.click(input);
    await user.paste('x'.repeat(101));
    expect(await screen.findByText('At most 100 characters.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.calls('PATCH', '/api/audiences/4')).toHaveLength(0);
  });
});
