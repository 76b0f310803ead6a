import { Suspense, lazy, useState } from 'react';
import { Button } from '@fluentui/react-components';
import { PersonCircleRegular } from '@fluentui/react-icons';
import { useAuth } from '../auth/AuthProvider';
import { accountLabel } from './accountLabel';

// Fluent's Menu (and its positioning) is fetched with the first click on the account button.
const AccountMenuPopup = lazy(() => import('./AccountMenuPopup'));

/** The account menu: the member's name (disabled) and Logout through the identity provider. */
export function AccountMenu({ compact }: { compact: boolean }) {
  const { state, signOut } = useAuth();
  const [requested, setRequested] = useState(false);
  const name = state.status === 'signedIn' ? `${state.profile.firstName} ${state.profile.lastName}`.trim() : '';
  const button = (
    <Button
      appearance="subtle"
      icon={<PersonCircleRegular />}
      aria-label={accountLabel(name, compact)}
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => setRequested(true)}
    >
      {compact ? null : name || 'Account'}
    </Button>
  );
  if (!requested) return button;
  return (
    <Suspense fallback={button}>
      <AccountMenuPopup name={name} compact={compact} onSignOut={signOut} />
    </Suspense>
  );
}
