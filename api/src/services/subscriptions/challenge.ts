/**
 * The proof-of-work of a sign-up (altcha-lib, no third party): the server hands out a signed challenge
 * for one form, the browser's widget finds the counter whose SHA-256 key starts with the signed prefix,
 * and the submission carries `altcha`, the widget's payload (base64 of `{ challenge, solution }`).
 *
 * Deterministic mode: the server picks the counter, so checking a solution is two HMACs (the challenge's
 * signature and the key's), never the work itself. A solved challenge is taken once: its signature is
 * stored until the challenge expires (signup_used_challenges), so a replay fails in every process.
 */
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { createHmac } from 'node:crypto';

export const CHALLENGE_ALGORITHM = 'SHA-256';
/** A challenge holds this long: enough to fill a form in, short enough that stored ones stay few. */
export const CHALLENGE_TTL_SECONDS = 10 * 60;

export interface ChallengeOptions {
  /** The secret the challenge signatures derive from (TRACKING_SECRET: one secret to keep). */
  secret: string;
  /** The counter is drawn in [min, max]: the solver tries about that many keys (a fraction of a second in a browser). */
  counter?: { min: number; max: number };
}

export type CheckedSolution = { ok: true; signature: string; expiresAt: Date } | { ok: false; reason: 'malformed' | 'expired' | 'invalid' };

/** The widget's payload, decoded; undefined when it is not one. */
function decodePayload(payload: string): { challenge: Challenge; solution: Solution } | undefined {
  if (payload.length > 4000) return undefined;
  try {
    const decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as unknown;
    if (typeof decoded !== 'object' || decoded === null) return undefined;
    const { challenge, solution } = decoded as { challenge?: Challenge; solution?: Solution };
    if (typeof challenge?.parameters !== 'object' || challenge.parameters === null || typeof solution !== 'object' || solution === null)
      return undefined;
    return { challenge, solution };
  } catch {
    return undefined;
  }
}

export function signupChallenges({ secret, counter = { min: 5_000, max: 50_000 } }: ChallengeOptions) {
  // Secrets of their own, derived, so a challenge's signature is no tracking token's MAC.
  const derive = (label: string) => createHmac('sha256', secret).update(label).digest('hex');
  const hmacSignatureSecret = derive('signup-challenge');
  const hmacKeySignatureSecret = derive('signup-challenge-key');

  return {
    /** A challenge for one submission to the form `slug`. */
    create(slug: string): Promise<Challenge> {
      return createChallenge({
        algorithm: CHALLENGE_ALGORITHM,
        cost: 1,
        counter: randomInt(counter.max, counter.min),
        deriveKey,
        data: { form: slug },
        expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
    },

    /** Whether the payload solves a challenge this server signed for this form (not whether it was used). */
    async check(payload: string, slug: string): Promise<CheckedSolution> {
      const decoded = decodePayload(payload);
      if (!decoded) return { ok: false, reason: 'malformed' };
      const { challenge, solution } = decoded;
      let result;
      try {
        result = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret, hmacKeySignatureSecret });
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      if (result.expired) return { ok: false, reason: 'expired' };
      // The form is inside the signed parameters: a challenge of one form solves no other.
      if (!result.verified || challenge.parameters.data?.form !== slug || !challenge.signature) return { ok: false, reason: 'invalid' };
      const expiresAt = new Date((challenge.parameters.expiresAt ?? Date.now() / 1000 + CHALLENGE_TTL_SECONDS) * 1000);
      return { ok: true, signature: challenge.signature, expiresAt };
    },
  };
}

export type SignupChallenges = ReturnType<typeof signupChallenges>;
