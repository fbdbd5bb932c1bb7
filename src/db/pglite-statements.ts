import { type PGlite, type QueryOptions, type Results, type Transaction, messages, parse, protocol, types } from '@electric-sql/pglite';

const { serialize } = protocol;

/**
 * The types Drizzle's PGlite driver reads as text and maps itself (its session.js: timestamps,
 * intervals, dates and their arrays, and numeric[]).
 */
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;
const DRIZZLE_TEXT_PARSERS = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((oid) => [oid, asText]));

/** Named statements kept per embedded database, least recently used closed first. */
export const MAX_STATEMENTS = 500;

interface Statement {
  name: string;
  paramTypes: number[];
  /**
   * Its result's columns as described when it was parsed (a row description, or "no data"),
   * given to each run's answer instead of describing the portal again: decoding every column's
   * name on every run was the largest part of reading a short answer. A statement's columns
   * cannot change under it: PostgreSQL refuses to run it (0A000) and it is parsed again.
   */
  columns: messages.BackendMessage | undefined;
}

/** A query's options without its parsers: the adapter's own table already has Drizzle's (DRIZZLE_TEXT_PARSERS). */
function withoutParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  const { parsers: _sameAsTheInstance, ...rest } = options;
  return rest;
}

/** PostgreSQL's "cached plan must not change result type": the statement's tables changed under it. */
const STALE_STATEMENT = '0A000';

/**
 * A failed statement's error as PGlite's own `query` throws it: with the statement's text and
 * parameters on it, which is how the error log (plugins/errors.ts) knows to log the text alone
 * and never the database's message, which can quote a parameter.
 */
function failed(err: unknown, query: string, params: unknown[], queryOptions: QueryOptions | undefined): unknown {
  if (err instanceof messages.DatabaseError) Object.assign(err, { query, params, queryOptions });
  return err;
}

/**
 * The PGlite handle Drizzle is given: the two calls its driver makes (`query`, `transaction`),
 * answered as PGlite's own `query` answers them, at a third of the cost
 * (docs/decisions/embedded-statements.md):
 *
 * - PGlite's `query` sends parse, describe, bind, describe, execute and sync to the database as
 *   six separate calls, parses and plans the text every time, and merges the parsers Drizzle
 *   passes into a copy of its whole table (318 types). Here a text with parameters is parsed once
 *   as a named statement (`wh_1`, ... kept for the last MAX_STATEMENTS texts, as node-postgres and
 *   pgx keep theirs) with its columns as described then, and each run is one call: bind, execute,
 *   sync. A text without parameters (DDL, `select now()`) runs unnamed, also in one call.
 * - The parsers are a table of the adapter's own, PGlite's with Drizzle's on top, made once; the
 *   instance's own table is left as it is for anyone else.
 * - The locks are PGlite's: outside a transaction a query waits for any open transaction to end
 *   (it must never run inside another caller's), and every call holds the query lock.
 * - A statement whose tables changed under it (0A000) is dropped; outside a transaction the query
 *   is parsed again and run once more (the error comes at bind: nothing ran).
 */
export class PgliteForDrizzle {
  readonly #statements = new Map<string, Statement>();
  /** Statements pushed out of the cache, closed with the next call. */
  #closing: string[] = [];
  #named = 0;
  readonly #parsers: PGlite['parsers'];

  private readonly client: PGlite;

  constructor(client: PGlite) {
    this.client = client;
    this.#parsers = { ...client.parsers, ...DRIZZLE_TEXT_PARSERS };
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.client._runExclusiveTransaction(() => this.client.runExclusive(() => this.#run<T>(text, params ?? [], options, true)));
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.client.transaction((tx) => {
      const query = <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        if (tx.closed) throw new Error('Transaction is closed');
        return this.client.runExclusive(() => this.#run<R>(text, params ?? [], options, false));
      };
      return fn(Object.create(tx, { query: { value: query } }) as Transaction);
    });
  }

  /** Named statements held now (tests). */
  get statementCount(): number {
    return this.#statements.size;
  }

  async #run<T>(text: string, params: unknown[], given: QueryOptions | undefined, outsideTransaction: boolean): Promise<Results<T>> {
    if (this.client.closed) throw new Error('PGlite is closed');
    const options = withoutParsers(given);
    try {
      return await this.#once<T>(text, params, options, outsideTransaction);
    } catch (err) {
      if (!(err instanceof messages.DatabaseError) || err.code !== STALE_STATEMENT || params.length === 0) throw failed(err, text, params, given);
      this.#forget(text);
      if (!outsideTransaction) throw failed(err, text, params, given);
      try {
        return await this.#once<T>(text, params, options, outsideTransaction);
      } catch (again) {
        throw failed(again, text, params, given);
      }
    }
  }

  async #once<T>(text: string, params: unknown[], options: QueryOptions | undefined, outsideTransaction: boolean): Promise<Results<T>> {
    if (params.length === 0) {
      const run = [serialize.parse({ text, types: [] }), serialize.bind({ values: [] }), serialize.describe({ type: 'P' })];
      const answer = await this.#call([...run, serialize.execute({}), serialize.sync()], outsideTransaction);
      return parse.parseResults(answer, this.#parsers, options)[0] as Results<T>;
    }
    const statement = await this.#statement(text);
    const bind = serialize.bind({ statement: statement.name, values: this.#values(statement, params, options) });
    const answer = await this.#call([bind, serialize.execute({}), serialize.sync()], outsideTransaction);
    return parse.parseResults(statement.columns ? [statement.columns, ...answer] : answer, this.#parsers, options)[0] as Results<T>;
  }

  /** One call into the database, the pending closes first; the messages read as they come (no copy of the whole answer). */
  #call(parts: Uint8Array[], syncToFs: boolean) {
    const closes = this.#closing.map((name) => serialize.close({ type: 'S', name }));
    this.#closing = [];
    return this.client.execProtocolStream(Buffer.concat([...closes, ...parts]), { syncToFs });
  }

  /** The text's named statement, parsed now if it has none; the least recently used beyond MAX_STATEMENTS is closed with the next call. */
  async #statement(text: string): Promise<Statement> {
    const known = this.#statements.get(text);
    if (known) {
      this.#statements.delete(text);
      this.#statements.set(text, known);
      return known;
    }
    const name = `wh_${(this.#named += 1).toString(36)}`;
    const answer = await this.#call([serialize.parse({ name, text, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()], false);
    const described = answer.find((m): m is messages.ParameterDescriptionMessage => m.name === 'parameterDescription');
    const columns = answer.find((m) => m.name === 'rowDescription' || m.name === 'noData');
    const statement = { name, paramTypes: described?.dataTypeIDs ?? [], columns };
    this.#statements.set(text, statement);
    if (this.#statements.size > MAX_STATEMENTS) this.#forget(this.#statements.keys().next().value!);
    return statement;
  }

  #forget(text: string) {
    const statement = this.#statements.get(text);
    if (!statement) return;
    this.#statements.delete(text);
    this.#closing.push(statement.name);
  }

  /** Parameters as text, by the statement's parameter types, as PGlite's own `query` serializes them. */
  #values(statement: Statement, params: unknown[], options: QueryOptions | undefined): (string | null)[] {
    return params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i]!;
      const serializer = options?.serializers?.[type] ?? this.client.serializers[type];
      return serializer ? (serializer(value) as string) : String(value);
    });
  }
}
