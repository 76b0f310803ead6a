/**
 * Erased addresses on the suppression list (migration 0022, services/people). An erasure leaves the
 * address's erased key (`erased_key()`: the SHA-256 of its fold, and its domain) with the reason
 * ERASED, and every check that asks whether an address may be mailed asks for that key too, so an
 * erased person imported again is flagged and never sent to.
 *
 * The key is a hash of each address checked, about a microsecond an address: a probe for a page of
 * contacts pays it always; a send over a whole audience pays it only once the organisation has erased
 * someone (ANY_ERASED, read once per statement).
 */

/** What every erased key, and every mail whose address was erased, starts with. */
export const ERASED_PREFIX = 'erased:';

/** SQL: the mail's address `email` (a campaign_jobs column) was erased: only its hash is left. */
export const erasedMail = (email: string) => `starts_with(${email}, '${ERASED_PREFIX}')`;

/** SQL: whether the organisation has erased anyone (an InitPlan: evaluated once per statement). */
export const ANY_ERASED = `(SELECT suppressions > 0 FROM suppression_counts WHERE reason = 'ERASED')`;

/** SQL: the address `address` (a column or expression) was erased. */
export const isErased = (address: string) => `EXISTS (SELECT 1 FROM suppressions erased WHERE erased.email_lower = erased_key(${address}))`;

/** SQL: the address `address` is suppressed, erased included, for a statement over many addresses. */
export const isSuppressed = (address: string) =>
  `(EXISTS (SELECT 1 FROM suppressions s WHERE s.email_lower = address_key(${address})) OR (${ANY_ERASED} AND ${isErased(address)}))`;

/**
 * SQL: why the address `address` is suppressed (its ERASED key first), for a page's rows: at most two
 * primary-key probes a row.
 */
export const suppressionReasonOf = (address: string) =>
  `(SELECT s.reason FROM suppressions s WHERE s.email_lower IN (address_key(${address}), erased_key(${address}))
     ORDER BY s.reason = 'ERASED' DESC LIMIT 1)`;

/** SQL: when the address `address` was erased, null if it was not. */
export const erasedAtOf = (address: string) => `(SELECT s.created_at FROM suppressions s WHERE s.email_lower = erased_key(${address}))`;
