/**
 * The one error thrown on purpose, by a service (a rule refused) or by the data layer (db/: the
 * database is gone, `unavailable`). Neither knows anything of HTTP or AMQP: they say what kind of
 * failure it is, and the HTTP layer maps the kind to a status in one place (http/errors.ts); a
 * queue consumer that meets `unavailable` lets the message be redelivered. It sits below every
 * layer so that db/ needs no service to say so (docs/architecture.md, Layers).
 */
export type DomainErrorKind = 'invalid' | 'forbidden' | 'not-found' | 'conflict' | 'too-large' | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DomainError';
  }
}

export const DATABASE_UNAVAILABLE = 'The database is unavailable right now; please try again in a moment.';
