/**
 * Templates: the rules behind the template calls (SPEC.md section 7). No HTTP or SQL here: errors
 * are DomainErrors, data goes through the repository. Who edited a template last, and when, comes
 * from the signed-in member and the clock, never from the request body.
 */
import type { Database } from '../../db/database.js';
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

    async create(name: unknown, memberEmail: string): Promise<{ id: number }> {
      return { id: await repo.insert(validName(name), memberEmail) };
    },

    /** A full save (name, design, html, plainText, preview) or a rename (name only). */
    async update(id: number, save: TemplateSave, memberEmail: string): Promise<Template> {
      const changes: TemplateChanges = { name: validName(save.name) };
      if (save.design !== undefined) {
        if (nestsDeeperThan(save.design, DESIGN_MAX_DEPTH)) throw new DomainError('invalid', DESIGN_TOO_DEEP);
        changes.design = save.design;
      }
      if (save.html !== undefined) changes.html = save.html;
      if (save.plainText !== undefined) changes.plainText = save.plainText;
      if (save.preview !== undefined) changes.preview = save.preview;
      return found(await repo.update(id, changes, memberEmail));
    },

    async replicate(id: number, memberEmail: string): Promise<{ id: number }> {
      return { id: found(await repo.copy(id, copyName, memberEmail)) };
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.remove(id))) throw new DomainError('not-found', TEMPLATE_NOT_FOUND);
    },
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
