/** The importing feature's queue and the message it carries (checked when consumed). */
import { z } from 'zod';
import { LAWFUL_BASES } from '../consent/repository.js';

const message = z.object({
  audienceId: z.number().int().positive(),
  /** The upload to import, by its name in the import spool: a file name, never a path, so a message cannot point elsewhere. */
  upload: z.string().regex(/^[\w.-]+$/, 'must be a file name'),
  source: z.enum(['CSV', 'TEXT']),
  /** The member who queued it: the import's outcome is recorded in the activity log under them. */
  memberEmail: z.string().max(320).optional(),
  /**
   * Which column holds the address and which columns go to which fields (by key), as the API resolved the
   * mapping (mapping.ts; the fields exist by then). Absent in a message of the release before: every other
   * column then goes to a TEXT field of its name, made by the importer.
   */
  /** The lawful basis the member chose in the wizard (issue 25); absent: not stated. Recorded with the finished import. */
  lawfulBasis: z.enum(LAWFUL_BASES).optional(),
  plan: z
    .object({
      emailColumn: z.string().min(1),
      columns: z.array(z.object({ column: z.string().min(1), key: z.string().min(1) })).max(10_000),
    })
    .optional(),
});

/** The 'contact-import' message. */
export type ContactImportMessage = z.infer<typeof message>;
export type ImportSource = ContactImportMessage['source'];

/**
 * Until the release after this one: the previous release named the upload `path`. A message it
 * queued is read as naming `upload`, and a message queued now also carries `path`, which a worker
 * of the previous release reads, so a rolling deploy loses no import in either direction
 * (docs/decisions/audiences-and-imports.md, "The upload, one name").
 */
const FORMER_UPLOAD_FIELD = 'path';

export const contactImportMessage = z.preprocess((raw) => {
  if (typeof raw !== 'object' || raw === null || 'upload' in raw || !(FORMER_UPLOAD_FIELD in raw)) return raw;
  const { [FORMER_UPLOAD_FIELD]: upload, ...rest } = raw as Record<string, unknown>;
  return { ...rest, upload };
}, message);

/** The message as it is published (see FORMER_UPLOAD_FIELD). */
export function publishedMessage(contactImport: ContactImportMessage): ContactImportMessage & { [FORMER_UPLOAD_FIELD]: string } {
  return { ...contactImport, [FORMER_UPLOAD_FIELD]: contactImport.upload };
}

export const importQueues = {
  'contact-import': contactImportMessage,
};
