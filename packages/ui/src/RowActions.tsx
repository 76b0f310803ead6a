import { Menu, MenuButton, MenuItem, MenuList, MenuPopover, MenuTrigger, Spinner } from '@fluentui/react-components';
import { DeleteRegular, MoreHorizontalRegular, RenameRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
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
}

/** The last cell of a list's row: its main action and a '...' menu with the others. */
export function RowActions({ itemName, primary, children, busy = false, disabled = false }: RowActionsProps) {
  return (
    <CellItems>
      {primary}
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <MenuButton
            size="small"
            appearance="subtle"
            icon={busy ? <Spinner size="extra-tiny" /> : <MoreHorizontalRegular />}
            disabled={disabled}
            aria-label={`More actions for ${itemName}`}
          />
        </MenuTrigger>
        <MenuPopover>
          <MenuList>{children}</MenuList>
        </MenuPopover>
      </Menu>
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
