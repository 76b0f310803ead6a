/**
 * The one contract between the shell (Module Federation host) and the feature remotes.
 *
 * The shell gives every remote a `RemoteContext`; every remote exposes `./App`, whose default
 * export is a component taking `RemoteProps` and rendering its own routes *relative* to the
 * base path it is mounted under (for example mfe-campaigns renders `edit/:id` under `/campaigns`).
 * React, react-dom, react-router-dom, Fluent UI's providers and TanStack Query are shared
 * singletons, so a remote uses the shell's router, theme and query client directly.
 *
 * The React side of the contract is in `@mailroom/mf-contract/react` (RemoteProvider, useRemote,
 * useApiClient) and the standalone development page in `@mailroom/mf-contract/harness`; this entry
 * stays free of React at run time. Who the remotes are (names, scopes, routes, ports) is in
 * `@mailroom/mf-contract/remotes`.
 */
import type { ComponentType } from 'react';
import type { RemoteName } from './remotes.js';
import type { Role } from './roles.js';

export type { RemoteName, Role };

export type ToastIntent = 'success' | 'info' | 'warning' | 'error';

export interface RemoteContext {
  /** Where the remote is mounted, e.g. '/audiences'. */
  basePath: string;
  /** Origin-relative or absolute base of the API, without a trailing slash ('' means same origin). */
  apiBaseUrl: string;
  /** A fresh access token for the API (bearer); resolves to null when signed out. */
  getAccessToken: () => Promise<string | null>;
  /** Toast at the top end of the window; the shell applies the spec's durations per intent. */
  notify: (intent: ToastIntent, message: string) => void;
  /** The signed-in member. */
  profile: { firstName: string; lastName: string; email: string };
  /**
   * The member's role (issue 27), as the API answers it (GET /api/me): screens hide or disable what it cannot do and
   * say who can (`RoleGate` of @mailroom/ui). The API enforces it whatever a screen shows.
   */
  role: Role;
  /** 'light' or 'dark'; the FluentProvider is the shell's, this is only informational. */
  theme: 'light' | 'dark';
  /** Deployment settings the features need in the browser (from the shell's config.json). */
  features: FeatureSettings;
}

/** Settings of the deployment that remotes read at run time; the server is the source of each. */
export interface FeatureSettings {
  /** The largest contact import the API takes, in bytes (IMPORT_MAX_BYTES): the drop area refuses larger files at once. */
  importMaxBytes: number;
  /** Where the drag-and-drop email editor's script is loaded from (EMAIL_EDITOR_SCRIPT_URL). */
  emailEditorScriptUrl: string;
}

/** The email editor's own script (react-email-editor's default); EMAIL_EDITOR_SCRIPT_URL replaces it. */
export const DEFAULT_EMAIL_EDITOR_SCRIPT_URL = 'https://editor.unlayer.com/embed.js';

/** Settings for tests and the standalone harness: the API's defaults. */
export const DEFAULT_FEATURE_SETTINGS: FeatureSettings = {
  importMaxBytes: 200 * 1024 * 1024,
  emailEditorScriptUrl: DEFAULT_EMAIL_EDITOR_SCRIPT_URL,
};

/**
 * TanStack Query `meta` of a mutation that has mail sent (a send, a test send, continue, the report's
 * retries and sends). Remotes share the shell's QueryClient: the shell sees such a mutation succeed and
 * reads its daily quota again, then every few seconds while the count moves.
 */
export const SENDS_MAIL = { sendsMail: true } as const;

/** True for the `meta` of a mutation marked with SENDS_MAIL. */
export const sendsMail = (meta: Record<string, unknown> | undefined): boolean => meta?.sendsMail === true;

export type RemoteProps = RemoteContext;

/** The module every remote exposes as `./App`. */
export interface RemoteModule {
  default: ComponentType<RemoteProps>;
}

/** Shape of `remotes.json`, served next to the shell: remote name -> URL of its mf-manifest.json. */
export type RemotesManifest = Record<RemoteName, string>;

/**
 * Shape of `config.json`, served next to the shell by whoever hosts it (the stack: api/src/web/web.ts),
 * so one shell build runs against any API and identity provider.
 */
export interface ShellConfig {
  /** Base of the API without a trailing slash; '' means the shell's own origin. */
  apiBaseUrl: string;
  oidc: { authority: string; clientId: string; scope: string };
  /** Only accounts whose e-mail domain is exactly this one may sign in. */
  orgDomain: string;
  orgName: string;
  /** A Pexels-style photo search for the login background, or null for the bundled image. */
  stockPhoto: { url: string; key: string } | null;
  features: FeatureSettings;
}
