/**
 * Where a sign-in may send the person afterwards: an address of this app only, as a path with its
 * query and fragment. Anything that could leave the origin is refused: a scheme (`javascript:`,
 * `https://...`), a protocol-relative `//host`, a backslash (browsers read `/\host` as `//host`),
 * control characters; so is the login page itself. Null when refused.
 */
export function safeReturnPath(value: unknown, origin: string = window.location.origin): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  const url = URL.parse(value, origin);
  if (!url || url.origin !== origin) return null;
  if (url.pathname === '/login' || url.pathname.startsWith('/login/')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
