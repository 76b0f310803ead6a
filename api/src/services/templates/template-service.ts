/**
 * Templates: the rules behind the template calls (docs/product.md, The calls). No HTTP or SQL here: errors
 * are DomainErrors, data goes through the repository. Who edited a template last, and when, comes
 * from the signed-in member and the clock, never from the request body.
 */
import type { Database } from '../../db/database.js';
import { recordActivity, recordEdit, type Actor } from '../activity/activity-service.js';
import { DomainError } from '../errors.js';
import { toPage, type Page, type PageQuery } from '../paging.js';
import { templateRepository, type Template, type TemplateChanges, type TemplateSummary } from './repository.js';

export type { Template, TemplateSummary };

export const NAME_REQUIRED = 'Fill your template name';
export const TEMPLATE_NOT_FOUND = 'Template not found';
export const DESIGN_TOO_DEEP = 'The design is nested too deeply';
/** Editor designs nest a dozen levels; PostgreSQL and JSON.stringify give out in the thousands. */
export const DESIGN_MAX_DEPTH = 100;
/** The contract's bound on names (EntityName). */
export const NAME_MAX_LENGTH = 200;
const COPY_SUFFIX = ' (copy)';

/** The copy's name says it is one, within the name bound. */
export function copyName(name: string): string {
  return `${name.slice(0, NAME_MAX_LENGTH - COPY_SUFFIX.length).trimEnd()}${COPY_SUFFIX}`;
}

/** Whether `value` nests objects and arrays deeper than `max` (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A save's fields as the contract allows them; `name` is required, the others are kept when absent. */
export interface TemplateSave {
  name?: unknown;
  design?: Record<string, unknown> | null;
  html?: string | null;
  plainText?: string | null;
  preview?: string | null;
}

export interface TemplateServiceDeps {
  db: Database;
}

export function createTemplateService({ db }: TemplateServiceDeps) {
  const repo = templateRepository(db);

  const validName = (name: unknown): string => {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!trimmed) throw new DomainError('invalid', NAME_REQUIRED);
    return trimmed;
  };
  const found = <T>(value: T | undefined): T => {
    if (value === undefined) throw new DomainError('not-found', TEMPLATE_NOT_FOUND);
    return value;
  };

  return {
    async list(query: PageQuery & { name?: string | undefined }): Promise<Page<TemplateSummary>> {
      const { items, totalItems } = await repo.list({ ...query, name: query.name?.trim() || undefined });
      return toPage(items, totalItems, query);
    },

    async get(id: number): Promise<Template> {
      return found(await repo.find(id));
    },

    async create(name: unknown, actor: Actor): Promise<{ id: number }> {
      const valid = validName(name);
      return db.transaction(async (tx) => {
        const id = await repo.insert(tx, valid, actor.email);
        await recordActivity(tx, { actor, kind: 'create', object: { type: 'template', id, name: valid } });
        return { id };
      });
    },

    /** A full save (name, design, html, plainText, preview) or a rename (name only); a change of name is recorded. */
    async update(id: number, save: TemplateSave, actor: Actor): Promise<Template> {
      const changes: TemplateChanges = { name: validName(save.name) };
      if (save.design !== undefined) {
        if (nestsDeeperThan(save.design, DESIGN_MAX_DEPTH)) throw new DomainError('invalid', DESIGN_TOO_DEEP);
        changes.design = save.design;
      }
      if (save.html !== undefined) changes.html = save.html;
      if (save.plainText !== undefined) changes.plainText = save.plainText;
      if (save.preview !== undefined) changes.preview = save.preview;
      return db.transaction(async (tx) => {
        const before = found(await repo.lockName(tx, id));
        const saved = found(await repo.update(tx, id, changes, actor.email));
        if (before !== saved.name) {
          await recordActivity(tx, {
            actor,
            kind: 'rename',
            object: { type: 'template', id, name: saved.name },
            details: { from: before },
          });
        }
        // A save of the content (the editor's, or its autosave): one entry per member every few minutes.
        if (Object.keys(changes).some((key) => key !== 'name'))
          await recordEdit(tx, { actor, object: { type: 'template', id, name: saved.name } });
        return saved;
      });
    },

    async replicate(id: number, actor: Actor): Promise<{ id: number }> {
      return db.transaction(async (tx) => {
        const copy = found(await repo.copy(tx, id, copyName, actor.email));
        await recordActivity(tx, {
          actor,
          kind: 'create',
          object: { type: 'template', id: copy.id, name: copy.name },
          details: { copyOf: id },
        });
        return { id: copy.id };
      });
    },

    async remove(id: number, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const name = found(await repo.lockName(tx, id));
        if (!(await repo.remove(tx, id))) throw new DomainError('not-found', TEMPLATE_NOT_FOUND);
        await recordActivity(tx, { actor, kind: 'delete', object: { type: 'template', id, name } });
      });
    },
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
