/**
 * The confirmation link's token: the pending sign-up's id and the link's expiry (seconds since the epoch),
 * in base 36, and an HMAC-SHA256 of both under TRACKING_SECRET, as mail/tracking-tokens.ts signs the links
 * of campaign mail (its own kind inside the MAC, so no tracking token passes as one): `k3x.sa8f2q.<mac>`.
 * The expiry is signed, so an expired link is told apart from a used one without a lookup.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

const MAC_LENGTH = 22;
const TOKEN = new RegExp(`^([0-9a-z]{1,11})\\.([0-9a-z]{1,11})\\.([A-Za-z0-9_-]{${MAC_LENGTH}})$`);

export type ReadToken = { kind: 'valid'; pendingId: number; expiresAt: Date } | { kind: 'expired' } | { kind: 'invalid' };

export function confirmTokens(secret: string) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (ids: string) => createHmac('sha256', key).update(`signup-confirm:${ids}`).digest('base64url').slice(0, MAC_LENGTH);

  return {
    sign(pendingId: number, expiresAt: Date): string {
      const ids = `${pendingId.toString(36)}.${Math.floor(expiresAt.getTime() / 1000).toString(36)}`;
      return `${ids}.${mac(ids)}`;
    },

    read(token: string, now = new Date()): ReadToken {
      const match = TOKEN.exec(token);
      if (!match) return { kind: 'invalid' };
      const ids = `${match[1]}.${match[2]}`;
      const expected = Buffer.from(mac(ids));
      const given = Buffer.from(match[3]!);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { kind: 'invalid' };
      const pendingId = parseInt(match[1]!, 36);
      const expiresAt = new Date(parseInt(match[2]!, 36) * 1000);
      if (!Number.isSafeInteger(pendingId) || pendingId < 1) return { kind: 'invalid' };
      return expiresAt <= now ? { kind: 'expired' } : { kind: 'valid', pendingId, expiresAt };
    },
  };
}

export type ConfirmTokens = ReturnType<typeof confirmTokens>;
