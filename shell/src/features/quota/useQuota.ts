import { useQuery } from '@tanstack/react-query';
import { useShell } from '../../ShellContext';
import type { Quota } from './quota';

/** SPEC section 9: quota refresh every 5 minutes. */
export const QUOTA_REFRESH_MS = 5 * 60 * 1000;

export function useQuota() {
  const { apiBaseUrl, getAccessToken } = useShell();
  return useQuery({
    queryKey: ['shell', 'ses-quota'],
    queryFn: async ({ signal }): Promise<Quota> => {
      const token = await getAccessToken();
      const response = await fetch(`${apiBaseUrl}/api/ses-quota`, {
        signal,
        headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
      if (!response.ok) throw new Error(`GET /api/ses-quota answered ${response.status}`);
      return (await response.json()) as Quota;
    },
    refetchInterval: QUOTA_REFRESH_MS,
  });
}
