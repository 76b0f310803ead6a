/**
 * An audience's typed fields (migration 0021; the rules are @mailroom/api-client/fields), through the
 * AudienceField model.
 */
import type { Database, Tx } from '../../db/database.js';
import type { AudienceField } from '../../db/models/index.js';

/** The audience's fields in position order (the order of audiences.headers), on `tx` when given. */
export async function listAudienceFields(db: Database, audienceId: number, tx?: Tx): Promise<AudienceField[]> {
  return db.models.AudienceField.findAll({
    where: { audienceId },
    order: [['position', 'ASC']],
    ...(tx ? { transaction: tx.transaction } : {}),
  });
}
