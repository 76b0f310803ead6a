/**
 * The /api operations of openapi.yaml, read from the file itself, with a valid value for each parameter and body:
 * the hostile sweep (src/http/hostile.test.ts) and the role walk (src/http/roles.test.ts) go through every operation
 * this way, so an operation added later is covered without touching them.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPENAPI_SPEC_PATH } from '../../src/http/app.js';

export type Json = Record<string, unknown>;
export type Schema = Json;

export const doc = parse(readFileSync(OPENAPI_SPEC_PATH, 'utf8')) as Json;
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export function deref<T = Json>(value: unknown): T {
  let current = value as Json;
  while (current && typeof current.$ref === 'string') {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json>((node, key) => node[key] as Json, doc);
  }
  return current as T;
}

/** A schema with its allOf parts merged (properties and required lists). */
export function flatten(schema: unknown): Schema {
  const s = deref(schema);
  if (!Array.isArray(s.allOf)) return s;
  const parts = (s.allOf as unknown[]).map(flatten);
  return {
    ...Object.assign({}, ...parts),
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), s.properties ?? {}),
    required: parts.flatMap((p) => (p.required as string[] | undefined) ?? []),
  };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
  schema: Schema;
}

export interface Operation {
  id: string;
  method: (typeof METHODS)[number];
  path: string;
  params: Parameter[];
  jsonBody: Schema | undefined;
  multipart: boolean;
}

export const operations: Operation[] = Object.entries(doc.paths as Record<string, Json>)
  .filter(([path]) => path.startsWith('/api/'))
  .flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const op = item[method] as Json;
      const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) => deref<Parameter>(p));
      const content = (deref(op.requestBody)?.content ?? {}) as Record<string, Json>;
      return {
        id: op.operationId as string,
        method,
        path,
        params,
        jsonBody: content['application/json'] ? flatten(content['application/json'].schema) : undefined,
        multipart: Boolean(content['multipart/form-data']),
      };
    }),
  )
  // Deletes last, so the entities the other operations are pointed at live through the sweep.
  .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));

// ---------------------------------------------------------------- valid values, from the schemas

export const STRING_CANDIDATES = ['Hostile sweep', 'mia@example.org', 'https://example.org/picture.png', 'abc'];

/** A value the schema accepts: its example, its first enum value, or a plain one of its type. */
export function sample(schemaOrRef: unknown): unknown {
  const schema = flatten(schemaOrRef);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return Math.max(1, Number(schema.minimum ?? 1));
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => sample(schema.items));
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const required = (schema.required as string[] | undefined) ?? [];
      return Object.fromEntries(required.map((name) => [name, sample(properties[name])]));
    }
    default: {
      if (schema.format === 'email') return 'mia@example.org';
      if (schema.format === 'date-time') return new Date().toISOString();
      const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
      return STRING_CANDIDATES.find((candidate) => !pattern || pattern.test(candidate)) ?? 'abc';
    }
  }
}

/** A valid value of the parameter, URL-encoded. */
export const paramSample = (p: Parameter): string => encodeURIComponent(String(p.example ?? sample(p.schema)));

export function buildUrl(op: Operation, pathValues: Record<string, string>, query: [string, string][]): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => pathValues[name]!);
  const search = query.map(([name, value]) => `${name}=${value}`).join('&');
  return search ? `${path}?${search}` : path;
}
