import { lazy, Suspense, useMemo } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { FluentProvider, Spinner, makeStyles } from '@fluentui/react-components';
import { EXTRA_AREAS, HOME_PATH, REMOTES, REMOTE_NAMES } from '@mailroom/mf-contract/remotes';
import type { ShellConfig } from './config';
import { ShellContext, useShell, type ShellContextValue } from './ShellContext';
import { API_KEYS_PATH, WEBHOOKS_PATH } from './features/access/paths';
import { useRole } from './features/access/useCaller';
import { AuthProvider, useAuth } from './features/auth/AuthProvider';
import type { AuthService } from './features/auth/types';
import { AppLayout } from './features/layout/AppLayout';
import { LoginPage } from './features/login/LoginPage';
import { NotifyProvider, useNotify } from './features/notify/NotifyProvider';
import type { RemoteLoader } from './features/remotes/federation';
import { RemoteArea } from './features/remotes/RemoteArea';
import { useFluentTheme } from './features/theme/fluentTheme';
import { useThemePreference, type ThemeName } from './features/theme/useThemePreference';

/** Only admins open them: each loads when opened, not with every member's first view. */
const ApiKeysPage = lazy(() => import('./features/access/ApiKeysPage').then((module) => ({ default: module.ApiKeysPage })));
const WebhooksPage = lazy(() => import('./features/access/WebhooksPage').then((module) => ({ default: module.WebhooksPage })));

export interface ShellProps {
  config: ShellConfig;
  auth: AuthService;
  loadRemote: RemoteLoader;
  queryClient: QueryClient;
}

const useStyles = makeStyles({
  page: { minHeight: '100vh' },
  loading: { display: 'flex', minHeight: '100vh', alignItems: 'center', justifyContent: 'center' },
});

function SignedInRoutes({ theme, onThemeChange }: { theme: ThemeName; onThemeChange: (theme: ThemeName) => void }) {
  const { state, getAccessToken } = useAuth();
  const { apiBaseUrl, loadRemote, config } = useShell();
  const notify = useNotify();
  const { role, known } = useRole();
  const remoteProps = useMemo(
    () => ({
      apiBaseUrl,
      getAccessToken,
      notify,
      profile: state.status === 'signedIn' ? state.profile : { firstName: '', lastName: '', email: '' },
      role,
      theme,
      features: config.features,
    }),
    [apiBaseUrl, getAccessToken, notify, state, role, theme, config.features],
  );
  // The remotes wait for the role, so that no action shows enabled and then locks (or the other way).
  if (!known) return <RoleLoading />;
  return (
    <Routes>
      <Route element={<AppLayout theme={theme} onThemeChange={onThemeChange} />}>
        {/* An admin's API keys (issue 27): the shell's own screen, as no remote's area is settings. */}
        <Route
          path={API_KEYS_PATH}
          element={
            <Suspense fallback={<Spinner label="Loading the API keys" />}>
              <ApiKeysPage />
            </Suspense>
          }
        />
        {/* An admin's outgoing webhooks (issue 27); other roles are told who can. */}
        <Route
          path={WEBHOOKS_PATH}
          element={
            <Suspense fallback={<Spinner label="Loading the webhooks" />}>
              <WebhooksPage />
            </Suspense>
          }
        />
        {/* React Router ranks the more specific base path first (/campaigns/reports/* before /campaigns/*). */}
        {REMOTE_NAMES.map((name) => (
          <Route
            key={name}
            path={`${REMOTES[name].basePath}/*`}
            element={<RemoteArea key={name} name={name} loader={loadRemote} props={remoteProps} />}
          />
        ))}
        {/* Areas a remote serves at a path of its own (the activity log, served by the reports remote). */}
        {Object.entries(EXTRA_AREAS).map(([key, area]) => (
          <Route
            key={key}
            path={`${area.basePath}/*`}
            element={<RemoteArea key={key} name={area.remote} loader={loadRemote} props={remoteProps} area={area} />}
          />
        ))}
      </Route>
      <Route path="*" element={<Navigate to={HOME_PATH} replace />} />
    </Routes>
  );
}

function RoleLoading() {
  const styles = useStyles();
  return (
    <div className={styles.loading}>
      <Spinner size="large" label="Loading your role..." />
    </div>
  );
}

function SignedOutRoutes() {
  const location = useLocation();
  const from = location.pathname.startsWith('/login') ? undefined : `${location.pathname}${location.search}`;
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="*" element={<Navigate to="/login" replace state={from && from !== '/' ? { from } : undefined} />} />
    </Routes>
  );
}

function ShellRoutes(props: { theme: ThemeName; onThemeChange: (theme: ThemeName) => void }) {
  const styles = useStyles();
  const { state } = useAuth();
  if (state.status === 'loading') {
    return (
      <div className={styles.loading}>
        <Spinner size="large" label="Loading your profile..." />
      </div>
    );
  }
  return state.status === 'signedIn' ? <SignedInRoutes {...props} /> : <SignedOutRoutes />;
}

/** The shell inside a router: theme, toasts, query client, sign-in and the routes of docs/product.md, Routes and screens. */
export function Shell({ config, auth, loadRemote, queryClient }: ShellProps) {
  const styles = useStyles();
  const [theme, setTheme] = useThemePreference();
  const fluentTheme = useFluentTheme(theme);
  const value = useMemo<ShellContextValue>(
    () => ({ config, apiBaseUrl: config.apiBaseUrl.replace(/\/$/, ''), getAccessToken: () => auth.getAccessToken(), loadRemote }),
    [config, auth, loadRemote],
  );
  return (
    // No className on the provider: Fluent copies it onto every portal's mount node (menus, toasts).
    <FluentProvider theme={fluentTheme}>
      <div className={styles.page}>
        <QueryClientProvider client={queryClient}>
          <ShellContext.Provider value={value}>
            <NotifyProvider>
              <AuthProvider auth={auth} orgDomain={config.orgDomain} orgName={config.orgName}>
                <ShellRoutes theme={theme} onThemeChange={setTheme} />
              </AuthProvider>
            </NotifyProvider>
          </ShellContext.Provider>
        </QueryClientProvider>
      </div>
    </FluentProvider>
  );
}
