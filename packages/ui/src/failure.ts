import { ApiError, errorMessage } from '@mailroom/api-client';

/**
 * The text of a failure toast or panel (SPEC 8): the server's message when it sent one; for a
 * response without one, the screen's own fallback (e.g. 'Failed to update audience name');
 * for a request that never got an answer, the error's own message.
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return errorMessage(error, fallback);
}
