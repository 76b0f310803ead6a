import { Tooltip } from '@fluentui/react-components';
import type { ReactElement } from 'react';
import { useRemote } from '@mailroom/mf-contract/react';
import { roleAllows, whoCan, type Role } from '@mailroom/mf-contract/roles';

/** What a locked action's tooltip says: 'Senders and admins can send'. */
export const whoCanDo = (needs: Role, action: string): string => `${whoCan(needs)} can ${action}`;

/** The member's role, as the shell passes it (issue 27). */
export function useRole(): Role {
  return useRemote().role;
}

/** True when the member's role allows what `needs` allows. */
export function useRoleAllows(needs: Role): boolean {
  return roleAllows(useRole(), needs);
}

/** What a locked action's control takes: focusable but inert, so its tooltip can still be read by keyboard. */
export interface RoleLock {
  disabledFocusable?: boolean;
}

export interface RoleGateProps {
  /** The lowest role allowed: the operation's x-mailroom-role in openapi.yaml. */
  needs: Role;
  /** The action in words after 'can', for the tooltip: 'send', 'create audiences'. */
  action: string;
  /** Leave the control out instead of disabling it (a menu entry, a secondary link). */
  hide?: boolean;
  /** The control, given `{ disabledFocusable: true }` when the member's role may not. */
  children: (lock: RoleLock) => ReactElement;
}

/**
 * An action the member's role may not take is disabled with a tooltip saying who can (or left out with `hide`). The
 * API refuses it anyway (403); this only spares the member a refusal (docs/decisions/access.md).
 */
export function RoleGate({ needs, action, hide, children }: RoleGateProps) {
  const allowed = useRoleAllows(needs);
  if (allowed) return children({});
  if (hide) return null;
  return (
    <Tooltip content={whoCanDo(needs, action)} relationship="description" withArrow>
      {children({ disabledFocusable: true })}
    </Tooltip>
  );
}
