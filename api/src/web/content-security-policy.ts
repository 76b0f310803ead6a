/**
 * The shell's Content-Security-Policy, derived from what the shell is told to load, so that moving a
 * remote (REMOTE_<NAME>_URL), the identity provider (OIDC_ISSUER), the email editor
 * (EMAIL_EDITOR_SCRIPT_URL) or the photo service changes the policy with it:
 *
 * - scripts: the shell's own, the remotes' and the email editor's; never inline, never eval;
 * - styles: 'unsafe-inline' besides the files. Email html shown in sandboxed srcdoc frames (campaign
 *   preview, report, click map) inherits this policy and is made of inline styles; Fluent UI's
 *   provider writes its theme variables into a <style> element. Script stays strict, which is what
 *   an injection would need;
 * - images: any https address (images inside email html, the login photo) and data: URLs (template
 *   previews);
 * - requests: the API, the remotes (mf-manifest.json), the identity provider (discovery, token,
 *   userinfo), the email editor and the photo search;
 * - frames: the identity provider (silent sign-in, session check), the email editor and the shell's
 *   own silent-check page; srcdoc frames need no source;
 * - nobody frames the shell, except the shell framing its own silent-check page.
 */
import type { RemotesManifest, ShellConfig } from '@mailroom/mf-contract';

/** The page oidc-client-ts loads in a hidden iframe of the shell (shell/public). */
export const SILENT_CHECK_PATH = '/silent-check-sso.html';

/** The origin of an absolute http(s) URL; nothing for a relative ('' = same origin) or malformed one. */
function originsOf(...urls: (string | undefined)[]): string[] {
  return urls.flatMap((url) => {
    try {
      const parsed = new URL(url ?? '');
      return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? [parsed.origin] : [];
    } catch {
      return [];
    }
  });
}

export function shellContentSecurityPolicy(
  shell: ShellConfig,
  remotes: Partial<RemotesManifest>,
  { framedBySelf = false }: { framedBySelf?: boolean } = {},
): string {
  const remoteOrigins = originsOf(...Object.values(remotes));
  const identityProvider = originsOf(shell.oidc.authority);
  const editor = originsOf(shell.features.emailEditorScriptUrl);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...remoteOrigins, ...editor],
    'style-src': ["'self'", "'unsafe-inline'", ...remoteOrigins],
    'img-src': ["'self'", 'data:', 'https:', ...remoteOrigins, ...editor],
    'connect-src': [
      "'self'",
      ...originsOf(shell.apiBaseUrl),
      ...remoteOrigins,
      ...identityProvider,
      ...editor,
      ...originsOf(shell.stockPhoto?.url),
    ],
    'frame-src': ["'self'", ...identityProvider, ...editor],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': [framedBySelf ? "'self'" : "'none'"],
  };
  return Object.entries(directives)
    .map(([directive, sources]) => [directive, ...new Set(sources)].join(' '))
    .join('; ');
}
