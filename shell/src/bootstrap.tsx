import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { QueryClient } from '@tanstack/react-query';
import { Shell } from './App';
import { loadRemotesManifest, loadShellConfig } from './config';
import { createOidcAuth } from './features/auth/oidc';
import { createRemoteLoader } from './features/remotes/federation';
import { loadDarkTheme } from './features/theme/fluentTheme';
import { initialTheme } from './features/theme/useThemePreference';

async function start(root: HTMLElement) {
  const [config, remotes] = await Promise.all([
    loadShellConfig(),
    // Without remotes.json the shell still signs in and shows each area's error panel.
    loadRemotesManifest().catch((error: unknown) => {
      console.error('remotes.json could not be loaded', error);
      return {};
    }),
    // A dark-theme member's first paint is dark already, chosen or the system's (the light theme is in the main bundle).
    initialTheme() === 'dark' ? loadDarkTheme().catch(() => null) : null,
  ]);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <Shell config={config} auth={createOidcAuth(config)} loadRemote={createRemoteLoader(remotes)} queryClient={queryClient} />
      </BrowserRouter>
    </StrictMode>,
  );
}

const root = document.getElementById('root')!;
start(root).catch((error: unknown) => {
  console.error(error);
  root.textContent = 'Mailroom could not start: its configuration (/config.json) is unavailable.';
});
