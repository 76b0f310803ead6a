// Runs inside the hidden iframe of oidc-client-ts's silent sign-in (the check on load and the
// automatic token renewal): hands the provider's answer in this page's URL back to the shell.
import { UserManager } from 'oidc-client-ts';

void new UserManager({ authority: window.location.origin, client_id: 'mailroom-shell', redirect_uri: window.location.href })
  .signinSilentCallback()
  .catch((error: unknown) => console.error('Silent sign-in callback failed', error));
