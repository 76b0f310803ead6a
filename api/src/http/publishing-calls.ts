/**
 * The calls that publish to the broker what they start: a send's messages (send, continue, and the
 * report's actions, all through the sending service's dispatch) and an import's (the upload). While
 * the broker is away each waits a few seconds for it (the queue's publish wait), then answers 503
 * with BROKER_UNAVAILABLE, before it has read its body or changed anything: no campaign becomes
 * SENDING with nothing queued, no import is accepted whose message was never published. Every other
 * call keeps working without the broker (docs/decisions/sending.md, broker outage).
 *
 * Checked here, ahead of the body parsers and the contract's validator, because an upload would
 * otherwise be streamed into the spool first. The broker may still go between this check and the
 * publish: then the guarantees of the publish itself hold (an import's claim rolls back with its
 * message; a dispatch's jobs are recorded and the sending sweep publishes them).
 */
import type { RequestHandler } from 'express';
import type { AppDeps } from '../deps.js';
import { BrokerUnavailableError } from '../queue/message-queue.js';

/**
 * How long a publish waits for a broker that is away in the HTTP process (its queue's publishWaitMs):
 * a member is answered within seconds; a worker's publish holds on for minutes.
 */
export const REQUEST_PUBLISH_WAIT_MS = 5_000;

/** POST paths (patterns without groups: nothing is decoded here, before the contract checks the path). */
export const PUBLISHING_CALLS: readonly RegExp[] = [
  /^\/api\/campaigns\/[^/]+\/(send|continue)\/?$/,
  /^\/api\/reports\/[^/]+\/(retry-all-failed-jobs|resend-unconfirmed|send-to-not-sent)\/?$/,
  /^\/api\/reports\/[^/]+\/(retry-job|send-to-contact)\/[^/]+\/?$/,
  /^\/api\/audiences\/[^/]+\/import\/file\/?$/,
];

export const isPublishingCall = (method: string, path: string): boolean =>
  method === 'POST' && PUBLISHING_CALLS.some((pattern) => pattern.test(path));

/** Lets a publishing call through once the broker can take its messages; BrokerUnavailableError (503) otherwise. */
export function publishingCallsNeedTheBroker({ messageQueue }: Pick<AppDeps, 'messageQueue'>): RequestHandler {
  return (req, _res, next) => {
    if (!isPublishingCall(req.method, req.path)) return next();
    messageQueue.available().then(
      (available) => next(available ? undefined : new BrokerUnavailableError()),
      (error: unknown) => next(error),
    );
  };
}
