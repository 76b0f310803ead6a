import { useEffect, useRef, useState } from 'react';
import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { PersonCircleRegular, SignOutRegular } from '@fluentui/react-icons';
import { accountLabel } from './accountLabel';

export interface AccountMenuPopupProps {
  name: string;
  compact: boolean;
  onSignOut: () => void;
}

/**
 * The account menu itself, loaded with the first click on the account button (Fluent's Menu is not
 * needed before): it mounts open, with the same button as its trigger, focused.
 */
export default function AccountMenuPopup({ name, compact, onSignOut }: AccountMenuPopupProps) {
  const [open, setOpen] = useState(true);
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => trigger.current?.focus(), []);
  return (
    <Menu positioning="above-start" open={open} onOpenChange={(_event, data) => setOpen(data.open)}>
      <MenuTrigger disableButtonEnhancement>
        <Button ref={trigger} appearance="subtle" icon={<PersonCircleRegular />} aria-label={accountLabel(name, compact)}>
          {compact ? null : name || 'Account'}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem disabled>{name}</MenuItem>
          <MenuItem icon={<SignOutRegular />} onClick={onSignOut}>
            Logout
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
