import { Menu, MenuButton, MenuItem, MenuList, MenuPopover, MenuTrigger, Spinner } from '@fluentui/react-components';
import { DeleteRegular, MoreHorizontalRegular, RenameRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import type { Role } from '@mailroom/mf-contract/roles';
import { RoleGate, type RoleLock } from './RoleGate';
import { CellItems } from './TableCells';

export interface RowActionsProps {
  /** The row's name: the menu button is 'More actions for {name}', so each row's button has its own name. */
  itemName: string;
  /** The row's main action, shown as a button before the menu (View, Edit, View report). */
  primary: ReactNode;
  /** MenuItems (Rename, Replicate, Delete...). */
  children: ReactNode;
  /** A menu action of this row is in flight: the menu button shows a spinner. */
  busy?: boolean;
  disabled?: boolean;
  /**
   * The lowest role allowed every entry of the menu (the operations' x-mailroom-role), and those entries in words
   * ('change audiences'): below it the menu button is locked, focusable, its tooltip saying who can (RoleGate).
   */
  needs?: { role: Role; action: string };
}

/** The last cell of a list's row: its main action and a '...' menu with the others. */
export function RowActions({ itemName, primary, children, busy = false, disabled = false, needs }: RowActionsProps) {
  const menuButton = (lock: RoleLock) => (
    <MenuButton
      size="small"
      appearance="subtle"
      icon={busy ? <Spinner size="extra-tiny" /> : <MoreHorizontalRegular />}
      disabled={disabled}
      aria-label={`More actions for ${itemName}`}
      {...lock}
    />
  );
  // A locked menu is its button alone: nothing in it could be done.
  const menu = (lock: RoleLock) =>
    lock.disabledFocusable ? (
      menuButton(lock)
    ) : (
      <Menu>
        <MenuTrigger disableButtonEnhancement>{menuButton({})}</MenuTrigger>
        <MenuPopover>
          <MenuList>{children}</MenuList>
        </MenuPopover>
      </Menu>
    );
  return (
    <CellItems>
      {primary}
      {needs ? (
        <RoleGate needs={needs.role} action={needs.action}>
          {menu}
        </RoleGate>
      ) : (
        menu({})
      )}
    </CellItems>
  );
}

export interface RowMenuItemProps {
  onClick: () => void;
  disabled?: boolean;
}

/** 'Rename' in a row's menu: every list names and draws it alike. */
export function RenameMenuItem({ onClick, disabled }: RowMenuItemProps) {
  return (
    <MenuItem icon={<RenameRegular />} disabled={disabled} onClick={onClick}>
      Rename
    </MenuItem>
  );
}

/** 'Delete' in a row's menu (it opens the list's confirmation). */
export function DeleteMenuItem({ onClick, disabled }: RowMenuItemProps) {
  return (
    <MenuItem icon={<DeleteRegular />} disabled={disabled} onClick={onClick}>
      Delete
    </MenuItem>
  );
}
