/**
 * The data layer every repository uses: Sequelize (models for entity reads and writes) and, on the
 * same connections, raw SQL for what earns it (COPY, dense-sequence paging, job claims).
 *
 * One transaction helper for every multi-statement write, and one place that knows what a lost
 * database looks like. A connection the server resets or terminates while it is checked out is
 * marked invalid and dropped by Sequelize's own listener (so the process lives); the statement that
 * was running fails, and this module turns that failure, or a refused connection, into
 * DomainError('unavailable'): a 503 for a request, a redelivery for a job. The next statement
 * opens a fresh connection once PostgreSQL is back.
 */
import { performance } from 'node:perf_hooks';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { BaseError, ConnectionError, Transaction, type Sequelize } from 'sequelize';
import { DATABASE_UNAVAILABLE, DomainError } from '../errors.js';
import type { Models } from './models/index.js';

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** Raw SQL on one connection: the transaction's, or a pooled one for a single statement. */
export interface Sql {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<R>>;
}

/** What a unit of work inside a transaction gets. */
export interface Tx extends Sql {
  /** Pass as `{ transaction }` to model calls so they run on this transaction. */
  transaction: Transaction;
  /** The transaction's own pg client, for COPY streams (pg-copy-streams). */
  client: pg.Client;
}

export interface TransactionOptions {
  /** Default READ COMMITTED; REPEATABLE READ gives a snapshot (an export reads one consistent state). */
  isolation?: 'READ COMMITTED' | 'REPEATABLE READ';
  readOnly?: boolean;
}

/** SQLSTATEs that mean "the server is going away or full", not "this statement is wrong". */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket-level failures of a database connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH']);
const CONNECTION_LOST = /Connection terminated|connection error|Connection closed|timeout exceeded when trying to connect|not queryable/i;

const isUnavailableSqlState = (code: unknown) => typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code));

/** A failure of a call known to be a database call: the connection, not the statement, failed. */
function isConnectionLoss(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (error === null || typeof error !== 'object') return false;
  const { code, message, parent } = error as { code?: unknown; message?: unknown; parent?: unknown };
  if (isUnavailableSqlState(code) || (typeof code === 'string' && SOCKET_CODES.has(code))) return true;
  if (typeof message === 'string' && CONNECTION_LOST.test(message)) return true;
  return parent !== undefined && parent !== error && isConnectionLoss(parent);
}

/**
 * True when `error`, from anywhere, says the database is gone: our DomainError, a Sequelize
 * connection error, or a Sequelize error whose cause is a lost connection. (A bare socket error is
 * not enough here: it may come from SES or the identity provider.)
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DomainError) return error.kind === 'unavailable';
  if (error instanceof BaseError) return isConnectionLoss(error);
  return error !== null && typeof error === 'object' && isUnavailableSqlState((error as { code?: unknown }).code);
}

/** For errors of database calls: a lost database becomes DomainError('unavailable'); anything else is unchanged. */
export function asDomainError(error: unknown): unknown {
  if (error instanceof DomainError || !isConnectionLoss(error)) return error;
  return new DomainError('unavailable', DATABASE_UNAVAILABLE, { cause: error });
}

type Connection = pg.Client;

function sqlOn(client: Connection): Sql {
  return {
    async query<R>(text: string, params?: unknown[]) {
      const result = await client.query(text, params as unknown[]);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
  };
}

export class Database implements Sql {
  /** performance.now() of the last statement that found the database unavailable (-Infinity: never). */
  private unavailableAt = -Infinity;

  constructor(
    readonly sequelize: Sequelize,
    readonly models: Models,
  ) {}

  /** Milliseconds since this process last found the database unavailable (Infinity: never). */
  msSinceUnavailable(): number {
    return performance.now() - this.unavailableAt;
  }

  /** asDomainError, noting when the database was found gone. */
  private failure(error: unknown): unknown {
    const mapped = asDomainError(error);
    if (mapped instanceof DomainError && mapped.kind === 'unavailable') this.unavailableAt = performance.now();
    return mapped;
  }

  /** One raw statement on a pooled connection (no transaction). */
  async query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    const client = await this.acquire();
    try {
      return await sqlOn(client).query<R>(text, params);
    } catch (error) {
      throw this.failure(error);
    } finally {
      this.sequelize.connectionManager.releaseConnection(client);
    }
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const open = await this.begin(options);
    let result: T;
    try {
      result = await work(open.tx);
    } catch (error) {
      await open.rollback();
      throw this.failure(error);
    }
    await open.commit();
    return result;
  }

  /**
   * A stream read inside one transaction (an export's snapshot): `open` starts the source on the
   * transaction; the transaction ends when the returned stream does (committed at its end, rolled
   * back if it fails or its reader goes away), so the connection is held exactly as long as needed.
   */
  async streamInTransaction(open: (tx: Tx) => Readable, options: TransactionOptions & { prefix?: string } = {}): Promise<Readable> {
    const txn = await this.begin(options);
    const out = new PassThrough({ highWaterMark: 256 * 1024 });
    if (options.prefix) out.write(options.prefix);
    let source: Readable;
    try {
      source = open(txn.tx);
    } catch (error) {
      await txn.rollback();
      throw this.failure(error);
    }
    pipeline(source, out).then(
      () => txn.commit().catch(() => undefined),
      () => txn.rollback(),
    );
    return out;
  }

  /** Resolves when the database answers a statement; for readiness checks. */
  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.sequelize.close();
  }

  private async acquire(): Promise<Connection> {
    try {
      return (await this.sequelize.connectionManager.getConnection({ type: 'write' })) as Connection;
    } catch (error) {
      throw this.failure(error);
    }
  }

  private async begin(options: TransactionOptions): Promise<{ tx: Tx; commit(): Promise<void>; rollback(): Promise<void> }> {
    let transaction: Transaction;
    try {
      // PostgreSQL's default is READ COMMITTED: only a snapshot costs the extra SET statement.
      transaction = await this.sequelize.transaction({
        ...(options.isolation === 'REPEATABLE READ' ? { isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ } : {}),
        ...(options.readOnly ? { readOnly: true } : {}),
      });
    } catch (error) {
      throw this.failure(error);
    }
    const client = (transaction as unknown as { connection: Connection }).connection;
    return {
      tx: { transaction, client, ...sqlOn(client) },
      commit: async () => {
        try {
          await transaction.commit();
        } catch (error) {
          throw this.failure(error);
        }
      },
      // A rollback on a lost connection fails too; Sequelize then drops that connection.
      rollback: () => transaction.rollback().catch(() => undefined),
    };
  }
}
