/**
 * Group commit: many callers' small writes go to the database together, one transaction for all of them.
 *
 * On these machines a round trip to PostgreSQL costs more in system calls than the statement costs to run, so
 * a burst of requests that each open a transaction spends most of its time writing to sockets. Here the first
 * caller's item is written once the event loop has dealt with what else had arrived with it (setImmediate: the
 * other requests read in the same turn join it). Up to `maxWrites` batches are written at once (a second one
 * keeps the process busy while the first waits on the database); items that arrive while they are in flight wait
 * and then go together, up to `maxItems` at a time. A quiet process thus adds no delay, and a busy one writes
 * once per batch.
 *
 * `write` gets the items in arrival order and answers one result per item, in the same order. When it throws,
 * every caller of that batch gets the error.
 */
export function groupCommit<Item, Result>(
  write: (items: readonly Item[]) => Promise<readonly Result[]>,
  { maxItems = 200, maxWrites = 2 }: { maxItems?: number; maxWrites?: number } = {},
): (item: Item) => Promise<Result> {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];
  let writes = 0;
  let starting = false;

  async function writeWaiting(): Promise<void> {
    starting = false;
    writes += 1;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxItems);
      waiting = waiting.slice(batch.length);
      try {
        const results = await write(batch.map((entry) => entry.item));
        if (results.length !== batch.length) throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
        batch.forEach((entry, i) => entry.resolve(results[i]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    writes -= 1;
  }

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (starting || writes >= maxWrites) return;
      starting = true;
      setImmediate(() => void writeWaiting());
    });
}
