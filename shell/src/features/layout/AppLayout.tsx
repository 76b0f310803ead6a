import { useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import {
  Hamburger,
  NavDrawer,
  NavDrawerBody,
  NavDrawerFooter,
  NavDrawerHeader,
  NavItem,
  Switch,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  HistoryFilled,
  HistoryRegular,
  KeyFilled,
  KeyRegular,
  MailProhibitedFilled,
  MailProhibitedRegular,
  MailTemplateFilled,
  MailTemplateRegular,
  MegaphoneFilled,
  MegaphoneRegular,
  PeopleAudienceFilled,
  PeopleAudienceRegular,
  PersonSearchFilled,
  PersonSearchRegular,
  PlugConnectedFilled,
  PlugConnectedRegular,
  bundleIcon,
  type FluentIcon,
} from '@fluentui/react-icons';
import { EXTRA_AREAS, REMOTES, REMOTE_NAMES, SUB_NAV, type RemoteName } from '@mailroom/mf-contract/remotes';
import { QuotaBar } from '../quota/QuotaBar';
import { roleLabel } from '@mailroom/mf-contract/roles';
import { useRole } from '../access/useCaller';
import { API_KEYS_PATH, WEBHOOKS_PATH } from '../access/paths';
import type { ThemeName } from '../theme/useThemePreference';
import { AccountMenu } from './AccountMenu';
import { ScrollToTopButton } from './ScrollToTopButton';
import { WIDE_SCREEN, useMediaQuery } from './useMediaQuery';

/** docs/product.md, Limits and constants: drawer width 250, collapsed 80. */
export const DRAWER_WIDTH = 250;
export const DRAWER_COLLAPSED_WIDTH = 80;

const NAV_ICONS: Partial<Record<RemoteName, FluentIcon>> = {
  audiences: bundleIcon(PeopleAudienceFilled, PeopleAudienceRegular),
  templates: bundleIcon(MailTemplateFilled, MailTemplateRegular),
  campaigns: bundleIcon(MegaphoneFilled, MegaphoneRegular),
};

/** Icons of the drawer's other entries, by path. */
const PATH_ICONS: Record<string, FluentIcon> = {
  '/audiences/suppressions': bundleIcon(MailProhibitedFilled, MailProhibitedRegular),
  [EXTRA_AREAS.activity.basePath]: bundleIcon(HistoryFilled, HistoryRegular),
  [EXTRA_AREAS.people.basePath]: bundleIcon(PersonSearchFilled, PersonSearchRegular),
};

interface NavEntry {
  path: string;
  label: string;
  Icon: FluentIcon;
  /** Shown indented under the entry before it (Suppressions under Audiences). */
  sub?: boolean;
}

/** The drawer: every remote with a navigation label, in the contract's order, each with its sub-entries; then the extra areas. */
const NAV_ENTRIES: NavEntry[] = [
  ...REMOTE_NAMES.flatMap((name) => {
    const { basePath, navLabel } = REMOTES[name];
    const Icon = NAV_ICONS[name];
    if (!navLabel || !Icon) return [];
    const subs = (SUB_NAV[name] ?? []).map(({ path, label }) => ({ path, label, Icon: PATH_ICONS[path] ?? Icon, sub: true }));
    return [{ path: basePath, label: navLabel, Icon }, ...subs];
  }),
  ...Object.values(EXTRA_AREAS).map(({ basePath, navLabel }) => ({ path: basePath, label: navLabel, Icon: PATH_ICONS[basePath]! })),
];

/** Admins' entries (issue 27): shown to admins only; the API refuses everyone else anyway. */
const ADMIN_ENTRIES: NavEntry[] = [
  { path: API_KEYS_PATH, label: 'API keys', Icon: bundleIcon(KeyFilled, KeyRegular) },
  { path: WEBHOOKS_PATH, label: 'Webhooks', Icon: bundleIcon(PlugConnectedFilled, PlugConnectedRegular) },
];

const useStyles = makeStyles({
  root: { display: 'flex', minHeight: '100vh' },
  // The landmark inside the drawer, laid out as the drawer lays out its header, body and footer.
  nav: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', alignSelf: 'stretch', flexGrow: 1, minHeight: 0 },
  inlineDrawer: {
    position: 'sticky',
    top: 0,
    height: '100vh',
    flexShrink: 0,
    transitionProperty: 'width',
    transitionDuration: tokens.durationNormal,
  },
  main: { flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
  sticky: { position: 'sticky', top: 0, zIndex: 10 },
  topBar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  content: { flexGrow: 1, padding: tokens.spacingHorizontalXL },
  header: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  footer: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: tokens.spacingVerticalS },
  subEntry: { paddingInlineStart: tokens.spacingHorizontalXXL },
  hiddenLabel: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
});

interface LayoutProps {
  theme: ThemeName;
  onThemeChange: (theme: ThemeName) => void;
}

/** The entry of the current path, the longest that fits: /campaigns/reports/7 belongs to Campaigns, /audiences/suppressions to Suppressions. */
const selectedEntry = (pathname: string) =>
  [...NAV_ENTRIES, ...ADMIN_ENTRIES]
    .filter(({ path }) => pathname === path || pathname.startsWith(`${path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0]?.path;

/** The whole drawer (entries, theme switch, account menu) is the page's navigation landmark. */
const NAV_LABEL = 'Main navigation';

function DrawerContent({
  collapsed,
  onToggle,
  theme,
  onThemeChange,
  toggleLabel,
  inDialog,
}: LayoutProps & { collapsed: boolean; onToggle: () => void; toggleLabel: string; inDialog: boolean }) {
  const styles = useStyles();
  const { role } = useRole();
  const content = (
    <>
      <NavDrawerHeader>
        <div className={styles.header}>
          <Hamburger onClick={onToggle} aria-label={toggleLabel} title={toggleLabel} />
          {!collapsed && (
            <Text weight="semibold" size={500}>
              Mailroom
            </Text>
          )}
        </div>
      </NavDrawerHeader>
      <NavDrawerBody>
        {[...NAV_ENTRIES, ...(role === 'admin' ? ADMIN_ENTRIES : [])].map(({ path, label, Icon, sub }) => (
          <NavItem
            key={path}
            value={path}
            href={path}
            icon={<Icon />}
            aria-label={collapsed ? label : undefined}
            className={sub && !collapsed ? styles.subEntry : undefined}
          >
            {collapsed ? null : label}
          </NavItem>
        ))}
      </NavDrawerBody>
      <NavDrawerFooter className={styles.footer}>
        <Switch
          label={collapsed ? undefined : 'Dark theme'}
          aria-label={collapsed ? 'Dark theme' : undefined}
          checked={theme === 'dark'}
          onChange={(_event, data) => onThemeChange(data.checked ? 'dark' : 'light')}
        />
        <AccountMenu compact={collapsed} />
        {!collapsed && <Text size={200}>Role: {roleLabel(role)}</Text>}
      </NavDrawerFooter>
    </>
  );
  // The inline drawer's surface is the landmark itself; the overlay's is a modal dialog (aria-modal,
  // which a navigation landmark may not carry), so there the landmark is an element inside it.
  return inDialog ? (
    <nav aria-label={NAV_LABEL} className={styles.nav}>
      {content}
    </nav>
  ) : (
    content
  );
}

/** The signed-in frame: drawer (inline on wide screens, overlay under 600px), quota bar, the area, scroll-to-top. */
export function AppLayout({ theme, onThemeChange }: LayoutProps) {
  const styles = useStyles();
  const wide = useMediaQuery(WIDE_SCREEN);
  const [collapsed, setCollapsed] = useState(false);
  const [overlayOpen, setOverlayOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const selectedValue = selectedEntry(location.pathname);
  const { role } = useRole();

  const navProps = {
    selectedValue,
    onNavItemSelect: (event: Event | React.SyntheticEvent, data: { value: string }) => {
      // A client-side move: the drawer's items are links (middle-click and copying still work).
      event.preventDefault();
      void navigate(data.value);
      setOverlayOpen(false);
    },
  };

  return (
    <div className={styles.root}>
      {wide ? (
        <NavDrawer
          {...navProps}
          type="inline"
          aria-label={NAV_LABEL}
          open
          className={styles.inlineDrawer}
          style={{ width: collapsed ? DRAWER_COLLAPSED_WIDTH : DRAWER_WIDTH }}
        >
          <DrawerContent
            collapsed={collapsed}
            onToggle={() => setCollapsed((value) => !value)}
            toggleLabel={collapsed ? 'Expand navigation' : 'Collapse navigation'}
            theme={theme}
            onThemeChange={onThemeChange}
            inDialog={false}
          />
        </NavDrawer>
      ) : (
        <NavDrawer
          {...navProps}
          type="overlay"
          // A modal dialog, named (NavDrawer would make it a navigation landmark); the landmark is inside it.
          role="dialog"
          aria-label="Navigation menu"
          open={overlayOpen}
          onOpenChange={(_event, data) => setOverlayOpen(data.open)}
          style={{ width: DRAWER_WIDTH }}
        >
          <DrawerContent
            collapsed={false}
            onToggle={() => setOverlayOpen(false)}
            toggleLabel="Close navigation"
            theme={theme}
            onThemeChange={onThemeChange}
            inDialog
          />
        </NavDrawer>
      )}
      <div className={styles.main}>
        <div className={styles.sticky}>
          {!wide && (
            <header className={styles.topBar}>
              <Hamburger aria-label="Open navigation" onClick={() => setOverlayOpen(true)} />
              <Text weight="semibold" size={500}>
                Mailroom
              </Text>
            </header>
          )}
          <QuotaBar role={role} />
        </div>
        <main className={styles.content}>
          <Outlet />
        </main>
      </div>
      <ScrollToTopButton />
    </div>
  );
}
