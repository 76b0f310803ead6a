/**
 * The services' errors are the one DomainError of src/errors.ts, which db/ throws too; kept under
 * this name so that a service imports its errors from its own layer.
 */
export { DATABASE_UNAVAILABLE, DomainError, type DomainErrorKind } from '../errors.js';
