import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { PersonCircleRegular, SignOutRegular } from '@fluentui/react-icons';
import { useAuth } from '../auth/AuthProvider';

/** The account menu: the member's name (disabled) and Logout through the identity provider. */
export function AccountMenu({ compact }: { compact: boolean }) {
  const { state, signOut } = useAuth();
  const name = state.status === 'signedIn' ? `${state.profile.firstName} ${state.profile.lastName}`.trim() : '';
  return (
    <Menu positioning="above-start">
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="subtle" icon={<PersonCircleRegular />} aria-label="Account">
          {compact ? null : name || 'Account'}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem disabled>{name}</MenuItem>
          <MenuItem icon={<SignOutRegular />} onClick={signOut}>
            Logout
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
