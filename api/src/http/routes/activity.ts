/**
 * The activity log's call (an addition to the spec): `GET /api/activity`. Read-only: no route edits
 * or deletes the log. openapi.yaml has already validated the filters and cursors.
 */
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import type { ActivityCursor, ActivityKind, ActivityObjectType } from '../../services/activity/activity-service.js';
import { bool, int, str } from '../request.js';

/** The contract's default page size of the log. */
const DEFAULT_LIMIT = 25;

export function activityRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { activity } = services;
  const router = Router();

  router.get('/api/activity', async (req, res) => {
    const { before, after, objectId } = req.query;
    const cursor: ActivityCursor =
      before !== undefined
        ? { before: Number(before) }
        : after !== undefined
          ? { after: Number(after) }
          : bool(req.query.oldest)
            ? { from: 'oldest' }
            : { from: 'newest' };
    const filters = {
      member: str(req.query.member),
      kind: str(req.query.kind) as ActivityKind | undefined,
      objectType: str(req.query.objectType) as ActivityObjectType | undefined,
      objectId: objectId === undefined ? undefined : Number(objectId),
    };
    const member = memberOf(req);
    const only = member.role === 'admin' ? undefined : { memberEmail: member.email };
    res.json(await activity.list(filters, cursor, int(req.query.limit, DEFAULT_LIMIT), only));
  });

  return router;
}
