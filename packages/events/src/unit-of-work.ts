import type { Kysely, Transaction } from "kysely";
import { listenForRecordedEvents } from "./record-event.js";

/**
 * How a use case changes state: `run` executes `work` in one transaction, in which it writes
 * its rows and records its events (`recordEvent`/`recordEvents` on the `trx` it is given), so
 * the change and its events commit together or not at all. After a commit that recorded
 * events the outbox relay is woken once, so it publishes at once instead of at its next poll;
 * a transaction that throws rolls back, leaves no event and wakes nothing.
 */
export interface UnitOfWork<DB> {
  run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
}

/**
 * The unit of work of a service: transactions on `db` (its schema-bound Kysely), and
 * `wakeRelay` (its relay's poke) called after each commit that recorded events. The wake-up
 * comes after the commit because a relay woken earlier finds the rows not yet visible and
 * goes back to sleep until its poll.
 */
export function createUnitOfWork<DB>(db: Kysely<DB>, wakeRelay: () => void): UnitOfWork<DB> {
  return {
    async run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      let recorded = false;
      const result = await db.transaction().execute((trx) =>
        work(
          listenForRecordedEvents(trx, () => {
            recorded = true;
          }),
        ),
      );
      if (recorded) wakeRelay();
      return result;
    },
  };
}
