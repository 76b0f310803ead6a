import { Button, FluentProvider, webLightTheme } from '@fluentui/react-components';
import { DEFAULT_FEATURE_SETTINGS, type RemoteContext } from '@mailroom/mf-contract';
import { RemoteProvider } from '@mailroom/mf-contract/react';
import type { Role } from '@mailroom/mf-contract/roles';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RoleGate, whoCanDo } from './RoleGate';
import { DeleteMenuItem, RowActions } from './RowActions';

function remoteOf(role: Role): RemoteContext {
  return {
    basePath: '/campaigns',
    apiBaseUrl: 'http://localhost',
    getAccessToken: async () => 'test-token',
    notify: () => undefined,
    profile: { firstName: 'Mia', lastName: 'Member', email: 'mia@example.org' },
    role,
    theme: 'light',
    features: DEFAULT_FEATURE_SETTINGS,
  };
}

function renderGate(role: Role, hide = false) {
  const onClick = vi.fn();
  const remote = remoteOf(role);
  render(
    <FluentProvider theme={webLightTheme}>
      <RemoteProvider value={remote}>
        <RoleGate needs="sender" action="send" hide={hide}>
          {(lock) => (
            <Button onClick={onClick} {...lock}>
              Send
            </Button>
          )}
        </RoleGate>
      </RemoteProvider>
    </FluentProvider>,
  );
  return { onClick };
}

describe('RoleGate', () => {
  it('says who can, in words', () => {
    expect(whoCanDo('sender', 'send')).toBe('Senders and admins can send');
    expect(whoCanDo('editor', 'create audiences')).toBe('Editors, senders and admins can create audiences');
  });

  it.each(['sender', 'admin'] as const)('lets the role %s act', async (role) => {
    const { onClick } = renderGate(role);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Send' }).getAttribute('aria-disabled')).toBeNull();
  });

  it.each(['viewer', 'editor'] as const)('disables the action for the role %s, focusable, with a tooltip saying who can', async (role) => {
    const { onClick } = renderGate(role);
    const button = screen.getByRole('button', { name: 'Send' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await userEvent.tab();
    expect(document.activeElement).toBe(button);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Senders and admins can send');
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('leaves the action out with hide', () => {
    renderGate('editor', true);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
  });
});

describe("RowActions' role (issue 27)", () => {
  function renderRow(role: Role) {
    const onDelete = vi.fn();
    render(
      <FluentProvider theme={webLightTheme}>
        <RemoteProvider value={remoteOf(role)}>
          <RowActions itemName="Tree news" primary={<Button>View</Button>} needs={{ role: 'editor', action: 'rename or delete audiences' }}>
            <DeleteMenuItem onClick={onDelete} />
          </RowActions>
        </RemoteProvider>
      </FluentProvider>,
    );
    return { onDelete };
  }

  it('opens the menu for a role allowed its entries', async () => {
    const { onDelete } = renderRow('editor');
    await userEvent.click(screen.getByRole('button', { name: 'More actions for Tree news' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledTimes(1);
  });

  it('locks the menu below it, focusable, with a tooltip saying who can', async () => {
    renderRow('viewer');
    const button = screen.getByRole('button', { name: 'More actions for Tree news' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await userEvent.tab(); // View
    await userEvent.tab();
    expect(document.activeElement).toBe(button);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Editors, senders and admins can rename or delete audiences');
    await userEvent.click(button);
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
  });
});
