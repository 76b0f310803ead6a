/**
 * Sign-ups' queue: the confirmation mail of one pending sign-up, by its `signup_mails` row. The API
 * publishes it once the sign-up is committed and answers at once; the worker sends it (workers/signups.ts).
 * The row, not the message, decides: a message delivered twice, or published again by the sweep, finds the
 * row claimed and sends nothing.
 */
import { z } from 'zod';

export const signupMailMessage = z.object({ mailId: z.number().int().positive() });

export const signupQueues = {
  'signup-mail': signupMailMessage,
};
