/**
 * Where express-openapi-validator (or the AJV under it) lets through, or answers 500 to, what the
 * contract refuses: each gap is closed here with the validator's own 400, so routes may trust the
 * contract as docs/architecture.md, The contract says.
 */
import { readFileSync } from 'node:fs';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { error as validatorErrors } from 'express-openapi-validator';
import { parse } from 'yaml';

interface OpenApiRequest {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, unknown> };
}

type Json = Record<string, unknown>;
interface NumericParameter {
  name: string;
  in: 'path' | 'query';
}

/** The path and query parameters of type integer or number, by operationId. */
function numericParameters(specPath: string): Map<string, NumericParameter[]> {
  const doc = parse(readFileSync(specPath, 'utf8')) as Json;
  const deref = (value: unknown): Json => {
    let node = value as Json;
    while (node && typeof node.$ref === 'string') {
      node = node.$ref
        .slice(2)
        .split('/')
        .reduce<Json>((parent, key) => parent[key] as Json, doc);
    }
    return node ?? {};
  };
  const byOperation = new Map<string, NumericParameter[]>();
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item).filter((value): value is Json => Boolean((value as Json)?.operationId))) {
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])].map(deref);
      const numeric = parameters.filter(
        (p) => (p.in === 'path' || p.in === 'query') && ['integer', 'number'].includes(deref(p.schema).type as string),
      );
      byOperation.set(operation.operationId as string, numeric as unknown as NumericParameter[]);
    }
  }
  return byOperation;
}

/**
 * AJV coerces the text 'Infinity' (or an overflowing '1e999') of a numeric parameter to Infinity
 * and then skips minimum and maximum, which it checks on finite numbers only (ajv issue 2212): such
 * a value passes the contract and reaches SQL. Runs after the validator, which has matched the
 * operation and coerced the path parameters.
 */
export function finiteNumericParameters(specPath: string): RequestHandler {
  const numeric = numericParameters(specPath);
  return (req, _res, next) => {
    const { schema, pathParams } = (req as OpenApiRequest).openapi ?? {};
    for (const parameter of numeric.get(schema?.operationId ?? '') ?? []) {
      const value = parameter.in === 'path' ? pathParams?.[parameter.name] : req.query[parameter.name];
      const values = (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined);
      if (values.some((v) => !Number.isFinite(Number(v)))) {
        // Located as the validator locates its own findings (params, query), so it reads as they do.
        const location = parameter.in === 'path' ? 'params' : 'query';
        next(new validatorErrors.BadRequest({ path: `/${location}/${parameter.name}`, message: 'must be a finite number' }));
        return;
      }
    }
    next();
  };
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** A day of the calendar: 2027-02-29 and 2027-04-31 are not. */
function isCalendarDate(text: string): boolean {
  const match = FULL_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** RFC 3339's date-time, each part within its range: no 24:00:00, and no leap second (23:59:60), which a Date cannot hold. */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match || !isCalendarDate(match[1]!)) return false;
  const [hour, minute, second, offsetHours = 0, offsetMinutes = 0] = match.slice(2).map((part) => Number(part ?? 0));
  return hour! <= 23 && minute! <= 59 && second! <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
}

/**
 * The contract's `date` and `date-time` formats, judged as a calendar does. The validator's own
 * ('fast' ajv-formats) only match their shape: 2027-02-30T10:00:00Z passed, and JavaScript's Date
 * then read it as 2 March, so an impossible day was stored as another. Every field of these formats,
 * in bodies, queries and paths alike, is judged here.
 */
export const CALENDAR_FORMATS = {
  date: { type: 'string', validate: isCalendarDate },
  'date-time': { type: 'string', validate: isDateTime },
} as const;

/** busboy's messages for a form it cannot read, and multer's for a request that ended before its body. */
const CLIENT_FAULTS = /^(Unexpected end of form|Malformed part header|Request (aborted|closed|error))$/;

/**
 * The validator answers a multipart body that its parser (busboy, through multer) cannot read with a
 * 500, though the fault is the client's: a form cut short or malformed, or an upload the client
 * abandoned (its socket closed mid-body). Those become a 400, logged at debug like any refused
 * request; a failure to write the upload to disk keeps its 500.
 */
export function unreadableUploads(): ErrorRequestHandler {
  return (err, req, _res, next) => {
    const failure = err as { status?: unknown; message?: unknown } | undefined;
    const clientFault =
      failure?.status === 500 &&
      typeof failure.message === 'string' &&
      CLIENT_FAULTS.test(failure.message) &&
      req.is('multipart/form-data');
    next(
      clientFault ? new validatorErrors.BadRequest({ path: req.path, message: 'The upload was cut short or is not a valid form' }) : err,
    );
  };
}
