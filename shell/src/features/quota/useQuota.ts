import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { sendsMail } from '@mailroom/mf-contract';
import { useShell } from '../../ShellContext';
import type { Quota } from './quota';

/** docs/product.md, Limits and constants: quota refresh every 5 minutes. */
export const QUOTA_REFRESH_MS = 5 * 60 * 1000;
/** While sending and imports are paused (the broker is away), read this often, so that the banner goes soon after the broker is back. */
export const PAUSED_QUOTA_REFRESH_MS = 30_000;
/** After a send, the quota is read this often... */
export const SENDING_QUOTA_REFRESH_MS = 5000;
/** ...until its count has stood still this long (the campaign is sent, or waits). */
export const SENDING_SETTLED_MS = 30_000;

export const QUOTA_KEY = ['shell', 'ses-quota'] as const;

/**
 * The daily quota. Every 5 minutes on an idle screen (every 30 s while sending and imports are
 * paused); when a remote's mutation marked SENDS_MAIL succeeds on the shared QueryClient, at once and
 * then every 5 s until the count of mails sent has not moved for 30 s; when one fails, at once.
 */
export function useQuota() {
  const { apiBaseUrl, getAccessToken } = useShell();
  const queryClient = useQueryClient();
  const following = useRef<{ changedAt: number; sent?: number } | null>(null);

  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || !sendsMail(event.mutation.options.meta)) return;
        // A send refused may have met the broker away: read whether sending is paused at once.
        if (event.action.type === 'error') return void queryClient.invalidateQueries({ queryKey: QUOTA_KEY });
        if (event.action.type !== 'success') return;
        following.current = { changedAt: Date.now() };
        void queryClient.invalidateQueries({ queryKey: QUOTA_KEY });
      }),
    [queryClient],
  );

  return useQuery({
    queryKey: QUOTA_KEY,
    queryFn: async ({ signal }): Promise<Quota> => {
      const token = await getAccessToken();
      const response = await fetch(`${apiBaseUrl}/api/ses-quota`, {
        signal,
        headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
      if (!response.ok) throw new Error(`GET /api/ses-quota answered ${response.status}`);
      return (await response.json()) as Quota;
    },
    refetchInterval: (query) => {
      const follow = following.current;
      if (!follow) return query.state.data?.sendingAndImportsPaused ? PAUSED_QUOTA_REFRESH_MS : QUOTA_REFRESH_MS;
      const sent = query.state.data?.emailsSent;
      const now = Date.now();
      if (sent !== follow.sent) Object.assign(follow, { sent, changedAt: now });
      if (now - follow.changedAt < SENDING_SETTLED_MS) return SENDING_QUOTA_REFRESH_MS;
      following.current = null;
      return QUOTA_REFRESH_MS;
    },
  });
}
