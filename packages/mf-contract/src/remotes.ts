/**
 * Who the remotes are: each one's identity, declared here once. The remotes' Rspack configurations,
 * the shell's routes and drawer, the stack's remote servers and remotes.json, and the test and
 * benchmark scripts all read it.
 *
 * Plain TypeScript of erasable syntax with no imports, so Node runs it as it is (type stripping):
 * build configurations and scripts import `@mailroom/mf-contract/remotes` without a build step.
 */

export interface RemoteIdentity {
  /** The remote's folder (and package `@mailroom/<dir>`). */
  dir: string;
  /** Its Module Federation name (the container's global and the share scope's key). */
  scope: string;
  /** Where the shell mounts it; the remote's own routes are relative to it. */
  basePath: string;
  /** The area's name in messages ('The Audiences area could not be loaded') and page titles. */
  title: string;
  /** Its entry in the shell's drawer, or null when it has none (reports open from a campaign). */
  navLabel: string | null;
  /** Port of its development server; the stack serves its build on the same one, moved by REMOTES_PORT_BASE. */
  devPort: number;
  /** Its mf-manifest.json, relative to where the remote is served. */
  manifestPath: string;
}

/** The default port base: remote ports are this plus 1, 2, 3... */
export const REMOTES_PORT_BASE = 3100;

/** The remotes, in drawer order. Names are the keys of remotes.json. */
export const REMOTES = {
  audiences: {
    dir: 'mfe-audiences',
    scope: 'mfe_audiences',
    basePath: '/audiences',
    title: 'Audiences',
    navLabel: 'Audiences',
    devPort: REMOTES_PORT_BASE + 1,
    manifestPath: 'mf-manifest.json',
  },
  templates: {
    dir: 'mfe-templates',
    scope: 'mfe_templates',
    basePath: '/templates',
    title: 'Templates',
    navLabel: 'Templates',
    devPort: REMOTES_PORT_BASE + 2,
    manifestPath: 'mf-manifest.json',
  },
  campaigns: {
    dir: 'mfe-campaigns',
    scope: 'mfe_campaigns',
    basePath: '/campaigns',
    title: 'Campaigns',
    navLabel: 'Campaigns',
    devPort: REMOTES_PORT_BASE + 3,
    manifestPath: 'mf-manifest.json',
  },
  reports: {
    dir: 'mfe-reports',
    scope: 'mfe_reports',
    basePath: '/campaigns/reports',
    title: 'Reports',
    navLabel: null,
    devPort: REMOTES_PORT_BASE + 4,
    manifestPath: 'mf-manifest.json',
  },
} as const satisfies Record<string, RemoteIdentity>;

export type RemoteName = keyof typeof REMOTES;

/** An area a remote serves at a path of its own, outside its base path (the shell mounts the remote there too). */
export interface ExtraArea {
  /** The remote that renders it; it is told the area's path as its `basePath`. */
  remote: RemoteName;
  basePath: string;
  title: string;
  /** Its entry in the shell's drawer, after the remotes' entries. */
  navLabel: string;
}

/**
 * Areas hosted by a remote at an extra path (additions to the spec): the activity log is read like a
 * report, so the reports remote serves it at /activity; one person across audiences (issue 24) is the
 * audiences remote's, at /people. No new remote, stack server or manifest.
 */
export const EXTRA_AREAS = {
  activity: { remote: 'reports', basePath: '/activity', title: 'Activity', navLabel: 'Activity' },
  people: { remote: 'audiences', basePath: '/people', title: 'People', navLabel: 'People' },
} as const satisfies Record<string, ExtraArea>;

/** Drawer entries below a remote's own entry: a screen of that remote at a path under its base path. */
export interface SubNavEntry {
  path: string;
  label: string;
}

/** Sub-entries of the drawer, per remote (the Suppressions screen is the audiences remote's). */
export const SUB_NAV: Partial<Record<RemoteName, readonly SubNavEntry[]>> = {
  audiences: [{ path: `${REMOTES.audiences.basePath}/suppressions`, label: 'Suppressions' }],
};

/** docs/product.md, Routes and screens: where a signed-in member lands, and where any path the app does not know leads. */
export const HOME_PATH = REMOTES.audiences.basePath;

export const REMOTE_NAMES = Object.keys(REMOTES) as RemoteName[];

/** The port a remote is served on when the remote ports start at `portBase` instead of REMOTES_PORT_BASE. */
export const remotePort = (name: RemoteName, portBase: number = REMOTES_PORT_BASE): number =>
  portBase + REMOTES[name].devPort - REMOTES_PORT_BASE;

/** The URL of a remote's mf-manifest.json when the remote is served at `origin`. */
export const remoteManifestUrl = (name: RemoteName, origin: string): string => new URL(REMOTES[name].manifestPath, `${origin}/`).href;

/** The variable that points the stack at a remote served elsewhere (its mf-manifest.json URL): REMOTE_AUDIENCES_URL... */
export const remoteUrlVariable = (name: RemoteName): string => `REMOTE_${name.toUpperCase()}_URL`;

/** The module id the shell loads for a remote, e.g. 'mfe_audiences/App'. */
export const remoteAppId = (name: RemoteName): string => `${REMOTES[name].scope}/App`;
