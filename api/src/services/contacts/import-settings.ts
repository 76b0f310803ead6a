/**
 * Settings of the contact import, validated once when the audience routes or the import consumer
 * are built (a bad value stops the process at start, like config.ts). Kept with the feature because
 * only it reads them; IMPORT_MAX_BYTES (the upload cap, enforced by the app's upload parser) is in
 * config.ts.
 *
 * IMPORT_DIR is the spool folder: the HTTP process writes each accepted upload there and the worker
 * reads it from there, so both must see the same folder (the same machine, or a shared volume).
 * Default: `.data/imports` at the repository root.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ImportLimits } from './csv.js';

export interface ImportSettings extends ImportLimits {
  /** Spool folder shared by the HTTP process (writes) and the worker (reads, then removes). */
  dir: string;
  /** An audience importing longer than this with no worker on it is failed as interrupted. */
  staleAfterMs: number;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

const positive = (fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().positive()).optional())
    .transform((v) => v ?? fallback);

const schema = z.object({
  IMPORT_DIR: z.string().trim().optional(),
  // A contact row is a few hundred characters; 64 K leaves room for long custom fields while an
  // unclosed quote is caught before it swallows the file.
  IMPORT_MAX_LINE_CHARS: positive(64 * 1024),
  IMPORT_MAX_COLUMNS: positive(200),
  IMPORT_STALE_MINUTES: positive(30),
});

export function loadImportSettings(env: NodeJS.ProcessEnv = process.env): ImportSettings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid configuration:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  const e = parsed.data;
  return {
    dir: resolve(REPO_ROOT, e.IMPORT_DIR || '.data/imports'),
    maxLineChars: e.IMPORT_MAX_LINE_CHARS,
    maxColumns: e.IMPORT_MAX_COLUMNS,
    staleAfterMs: e.IMPORT_STALE_MINUTES * 60_000,
  };
}
