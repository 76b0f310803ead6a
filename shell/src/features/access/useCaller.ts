import { useQuery } from '@tanstack/react-query';
import { isRole, type Role } from '@mailroom/mf-contract/roles';
import { useShell } from '../../ShellContext';

export const CALLER_KEY = ['shell', 'me'] as const;

/**
 * The signed-in member's role (issue 27), as the API maps it from the identity provider's claim: read once a session,
 * given to every remote (RemoteContext.role), shown in the quota bar and the drawer. Until it is known the member is
 * treated as a viewer; the API enforces the role whatever a screen shows.
 */
export function useRole(): { role: Role; known: boolean } {
  const { apiBaseUrl, getAccessToken } = useShell();
  const query = useQuery({
    queryKey: CALLER_KEY,
    queryFn: async ({ signal }): Promise<{ role: Role }> => {
      const token = await getAccessToken();
      const response = await fetch(`${apiBaseUrl}/api/me`, {
        signal,
        headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
      if (!response.ok) throw new Error(`GET /api/me answered ${response.status}`);
      const body = (await response.json()) as { role?: unknown };
      return { role: isRole(body.role) ? body.role : 'viewer' };
    },
    staleTime: Infinity,
  });
  return { role: query.data?.role ?? 'viewer', known: !query.isPending };
}
