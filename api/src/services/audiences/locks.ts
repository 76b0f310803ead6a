/**
 * One PostgreSQL advisory lock per audience, taken by whatever rewrites its contacts wholesale:
 * the import (for its whole transaction) and the purge after a delete (for its whole run). They
 * exclude each other, and the stale-import sweep skips an audience whose lock is held, since a
 * worker is still on it. Two-key form: the class key keeps clear of other features' locks.
 */
const AUDIENCE_LOCK_CLASS = 0x4155; // 'AU'

/** SQL arguments `(class, key)` for pg_advisory_*lock; `$n` is the audience id parameter. */
export function audienceLockArgs(parameter: string): string {
  return `${AUDIENCE_LOCK_CLASS}, (${parameter}::bigint % 2147483647)::int`;
}
