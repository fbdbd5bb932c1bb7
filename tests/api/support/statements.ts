import type { DbOrTx } from '../../../src/db/client';

/** Counts the statements drizzle sends through `db` (and its transactions) while `on`. */
export function statementCounter(db: DbOrTx) {
  const counter = { on: false, texts: [] as string[] };
  const logger = {
    logQuery: (query: string) => {
      if (counter.on) counter.texts.push(query);
    },
  };
  // drizzle keeps its logger on the session (and passes the session's options to transactions);
  // prepared statements take it when they are built, so this runs before the first request.
  const session = (db as unknown as { session: { logger: unknown; options: { logger?: unknown } } }).session;
  session.logger = logger;
  session.options.logger = logger;
  return {
    /** The statements `fn` made. */
    async during(fn: () => Promise<unknown>): Promise<string[]> {
      counter.texts = [];
      counter.on = true;
      try {
        await fn();
      } finally {
        counter.on = false;
      }
      return counter.texts;
    },
  };
}
