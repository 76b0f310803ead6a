/**
 * The templates table, through its Sequelize model; raw SQL only for the copy, which duplicates
 * the design, html and preview inside PostgreSQL instead of carrying megabytes through Node.
 */
import type { Template, TemplateSummary } from '@mailroom/api-client';
import { Op, type WhereOptions } from 'sequelize';
import type { Database, Tx } from '../../db/database.js';
import type { Template as TemplateRow } from '../../db/models/index.js';
import { likeContains } from '../contacts/repository.js';
import { offsetOf, type PageQuery } from '../paging.js';

/** The contract's types: a change to openapi.yaml that this code does not follow fails the type check. */
export type { Template, TemplateSummary };

/** What a save may change; a field left out keeps its stored value. */
export interface TemplateChanges {
  name: string;
  design?: Record<string, unknown> | null;
  html?: string | null;
  plainText?: string | null;
  preview?: string | null;
}

/** A list row leaves the design and html in the database. */
const SUMMARY_ATTRIBUTES = ['id', 'name', 'preview', 'updatedAt', 'updatedByEmail'] as const;

const toSummary = (row: TemplateRow): TemplateSummary => ({
  id: row.id,
  name: row.name,
  preview: row.preview,
  updatedAt: row.updatedAt.toISOString(),
  updatedByEmail: row.updatedByEmail,
});

const toTemplate = (row: TemplateRow): Template => ({
  ...toSummary(row),
  design: row.design,
  html: row.html,
  plainText: row.plainText,
});

export function templateRepository(db: Database) {
  const { Template: Templates } = db.models;

  return {
    /** Most recently edited first. Templates are few (hundreds): a count and an OFFSET are cheap. */
    async list(query: PageQuery & { name?: string | undefined }): Promise<{ items: TemplateSummary[]; totalItems: number }> {
      const where: WhereOptions = query.name ? { name: { [Op.iLike]: likeContains(query.name) } } : {};
      const { rows, count } = await Templates.findAndCountAll({
        attributes: [...SUMMARY_ATTRIBUTES],
        where,
        order: [
          ['updatedAt', 'DESC'],
          ['id', 'DESC'],
        ],
        limit: query.limit,
        offset: offsetOf(query),
      });
      return { items: rows.map(toSummary), totalItems: count };
    },

    async find(id: number): Promise<Template | undefined> {
      const row = await Templates.findByPk(id);
      return row ? toTemplate(row) : undefined;
    },

    async insert(tx: Tx, name: string, updatedByEmail: string): Promise<number> {
      return (await Templates.create({ name, updatedByEmail }, { transaction: tx.transaction })).id;
    },

    /** The template's name, its row locked until the transaction ends (a save or delete records what it was). */
    async lockName(tx: Tx, id: number): Promise<string | undefined> {
      return (await Templates.findByPk(id, { attributes: ['name'], transaction: tx.transaction, lock: true }))?.name;
    },

    async update(tx: Tx, id: number, changes: TemplateChanges, updatedByEmail: string): Promise<Template | undefined> {
      const [, rows] = await Templates.update(
        { ...changes, updatedByEmail },
        { where: { id }, returning: true, transaction: tx.transaction },
      );
      return rows[0] ? toTemplate(rows[0]) : undefined;
    },

    /** Copies the template under `name(original name)`; undefined when there is no such template. */
    async copy(
      tx: Tx,
      id: number,
      copyName: (name: string) => string,
      updatedByEmail: string,
    ): Promise<{ id: number; name: string } | undefined> {
      const original = await Templates.findByPk(id, { attributes: ['name'], transaction: tx.transaction });
      if (!original) return undefined;
      const { rows } = await tx.query<{ id: number; name: string }>(
        `INSERT INTO templates (name, design, html, plain_text, preview, updated_by_email)
         SELECT $2, design, html, plain_text, preview, $3 FROM templates WHERE id = $1
         RETURNING id, name`,
        [id, copyName(original.name), updatedByEmail],
      );
      return rows[0] ? { id: Number(rows[0].id), name: rows[0].name } : undefined;
    },

    /**
     * Campaigns that used it keep working: their template_id becomes NULL (ON DELETE SET NULL) and a
     * sent campaign keeps the html it was sent with.
     */
    async remove(tx: Tx, id: number): Promise<boolean> {
      return (await Templates.destroy({ where: { id }, transaction: tx.transaction })) === 1;
    },
  };
}

export type TemplateRepository = ReturnType<typeof templateRepository>;
