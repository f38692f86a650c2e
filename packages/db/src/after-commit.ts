import type { Kysely, Transaction } from "kysely";

/** Registers a callback to run once the surrounding transaction has committed. */
export type OnCommit = (callback: () => void) => void;

/**
 * Runs `work` in a transaction, then, only once it committed, the callbacks `work` registered
 * through `onCommit`, in order; a transaction that rolls back runs none. This is where
 * wake-ups belong: a worker woken before the commit looks, finds nothing (the rows are not
 * visible yet) and goes back to sleep until its next poll.
 *
 * The callbacks run synchronously after the commit and must not throw: the transaction has
 * committed, so a failing callback is reported to `onCallbackError` (default: ignored)
 * instead of failing the caller.
 */
export async function transactionWithCommitHooks<DB, T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>, onCommit: OnCommit) => Promise<T>,
  onCallbackError: (error: unknown) => void = () => undefined,
): Promise<T> {
  return runThenCallbacks(
    (onCommit) => db.transaction().execute((trx) => work(trx, onCommit)),
    onCallbackError,
  );
}

/**
 * Runs `work`, then the callbacks it registered, in order, once it resolved (none if it
 * throws); a callback's failure goes to `onCallbackError`. transactionWithCommitHooks is this
 * around a transaction; a single autocommitted statement needs no more.
 */
export async function runThenCallbacks<T>(
  work: (onCommit: OnCommit) => Promise<T>,
  onCallbackError: (error: unknown) => void = () => undefined,
): Promise<T> {
  const callbacks: Array<() => void> = [];
  const result = await work((callback) => callbacks.push(callback));
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      onCallbackError(error);
    }
  }
  return result;
}
