/** What HTTP code (routers, middleware) depends on; the wiring itself is in ../deps.ts. */
export type { AppDeps } from '../deps.js';
export type { Member, TokenVerifier } from '../auth/verifier.js';
