/**
 * The proof-of-work of a sign-up solved as the browser's widget solves it (altcha-lib, SHA-256), for
 * tests and the subscribe benchmark: the widget's payload for a challenge of GET /subscribe/{slug}/challenge.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

export async function solvedPayload(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved in time');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
