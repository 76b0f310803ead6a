import { Link } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useHref, useLinkClickHandler } from 'react-router-dom';

/** A route parameter read as a positive integer id; null when absent or not one. */
export function parseRouteId(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export interface RouterLinkProps {
  to: string;
  children: ReactNode;
  inline?: boolean;
  className?: string;
}

/** A Fluent link that navigates inside the app (a real href, so it also opens in a new tab). */
export function RouterLink({ to, children, inline, className }: RouterLinkProps) {
  const href = useHref(to);
  const onClick = useLinkClickHandler<HTMLAnchorElement>(to);
  return (
    <Link href={href} onClick={onClick} inline={inline} className={className}>
      {children}
    </Link>
  );
}
