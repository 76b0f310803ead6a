/**
 * The standalone development page of a remote (`pnpm --filter @mailroom/mfe-<name> dev`): the same
 * providers the shell gives (Fluent theme, TanStack Query, router, toasts) around the remote's App,
 * with a development context instead of the shell's sign-in. The API base URL and a bearer token
 * come from localStorage ('mailroom.dev.apiBaseUrl', default http://localhost:8080, and
 * 'mailroom.dev.token'), so a developer can paste a token taken from the running shell.
 */
import { StrictMode, useCallback, useMemo, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  FluentProvider,
  Toast,
  Toaster,
  ToastTitle,
  useId,
  useToastController,
  webDarkTheme,
  webLightTheme,
} from '@fluentui/react-components';
import { DEFAULT_FEATURE_SETTINGS, type RemoteContext, type RemoteProps, type ToastIntent } from './index';
import { isRole } from './roles';

const TOAST_TIMEOUT: Record<ToastIntent, number> = { success: 3000, info: 4000, warning: 4000, error: 4000 };

function Harness({ App, basePath }: { App: ComponentType<RemoteProps>; basePath: string }) {
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  const theme = localStorage.getItem('mailroom.theme') === 'dark' ? 'dark' : 'light';
  const notify = useCallback(
    (intent: ToastIntent, message: string) =>
      dispatchToast(
        <Toast>
          <ToastTitle>{message}</ToastTitle>
        </Toast>,
        { intent, timeout: TOAST_TIMEOUT[intent], position: 'top-end' },
      ),
    [dispatchToast],
  );
  const context = useMemo<RemoteContext>(
    () => ({
      basePath,
      apiBaseUrl: localStorage.getItem('mailroom.dev.apiBaseUrl') ?? 'http://localhost:8080',
      getAccessToken: async () => localStorage.getItem('mailroom.dev.token'),
      notify,
      profile: { firstName: 'Dev', lastName: 'Member', email: 'dev@example.org' },
      // Another role to try the screens with: localStorage 'mailroom.dev.role' (viewer, editor, sender).
      role: ((role) => (isRole(role) ? role : 'admin'))(localStorage.getItem('mailroom.dev.role')),
      theme,
      features: DEFAULT_FEATURE_SETTINGS,
    }),
    [basePath, notify, theme],
  );
  return (
    <FluentProvider theme={theme === 'dark' ? webDarkTheme : webLightTheme} style={{ minHeight: '100vh', padding: 16 }}>
      <Toaster toasterId={toasterId} position="top-end" />
      <Routes>
        <Route path={`${basePath}/*`} element={<App {...context} />} />
        <Route path="*" element={<Navigate to={basePath} replace />} />
      </Routes>
    </FluentProvider>
  );
}

/** Render `App` on its own, mounted at `basePath`, into #root. */
export function mountStandalone(App: ComponentType<RemoteProps>, basePath: string): void {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <Harness App={App} basePath={basePath} />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}
