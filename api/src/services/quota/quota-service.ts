/**
 * The daily sending quota shown in the shell's quota bar: SES GetAccount's SendQuota.
 * Rules only; the SES call sits behind `SendQuotaSource`.
 */
import { GetAccountCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { Quota } from '@mailroom/api-client';

export type { Quota };

export interface SendQuota {
  max24HourSend: number;
  maxSendRate: number;
  sentLast24Hours: number;
}

export interface SendQuotaSource {
  sendQuota(): Promise<SendQuota>;
}

/** Percentage of the daily quota used (0 when there is no quota); remaining never below 0. */
export function quotaFrom(sendQuota: SendQuota): Quota {
  const max = nonNegative(sendQuota.max24HourSend);
  const sent = nonNegative(sendQuota.sentLast24Hours);
  return {
    emailsSent: sent,
    remainingSends: Math.max(0, max - sent),
    quotaUsedPercentage: max > 0 ? (sent / max) * 100 : 0,
    maxSendRate: nonNegative(sendQuota.maxSendRate),
    max24HourSend: max,
  };
}

/** SES reports -1 for "unlimited" in some APIs; a negative or missing figure is shown as 0. */
function nonNegative(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

export function sesSendQuotaSource(ses: SESv2Client): SendQuotaSource {
  return {
    async sendQuota() {
      const account = await ses.send(new GetAccountCommand({}));
      if (!account.SendQuota) throw new Error('SES GetAccount returned no SendQuota');
      return {
        max24HourSend: account.SendQuota.Max24HourSend ?? 0,
        maxSendRate: account.SendQuota.MaxSendRate ?? 0,
        sentLast24Hours: account.SendQuota.SentLast24Hours ?? 0,
      };
    },
  };
}

/**
 * GetAccount is rate-limited by SES (about one call per second per account), and every open
 * shell asks on load: answers are shared for `cacheMs`, and concurrent asks share one call.
 */
export function createQuotaService(source: SendQuotaSource, options: { cacheMs?: number; now?: () => number } = {}) {
  const cacheMs = options.cacheMs ?? 5_000;
  const now = options.now ?? Date.now;
  let cached: { at: number; quota: Promise<Quota> } | undefined;
  return {
    getQuota(): Promise<Quota> {
      if (cached && now() - cached.at < cacheMs) return cached.quota;
      const entry = { at: now(), quota: source.sendQuota().then(quotaFrom) };
      // A failure is not remembered: the next ask tries SES again.
      entry.quota.catch(() => {
        if (cached === entry) cached = undefined;
      });
      cached = entry;
      return entry.quota;
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
