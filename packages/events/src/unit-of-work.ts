import type { Kysely, Transaction } from "kysely";
import type { EventEnvelope } from "@petri/contracts/common";
import { type CommittedEvents, committedEventsOf } from "./committed-events.js";
import { listenForRecordedEvents } from "./record-event.js";

/**
 * How a use case changes state: `run` executes `work` in one transaction, in which it writes
 * its rows and records its events (`recordEvent`/`recordEvents` on the `trx` it is given), so
 * the change and its events commit together or not at all. After a commit that recorded
 * events they are published at once (the relay's hand-off) instead of at its next poll; a
 * transaction that throws rolls back, leaves no event and hands nothing over.
 */
export interface UnitOfWork<DB> {
  run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
}

/**
 * The unit of work of a service: transactions on `db` (its schema-bound Kysely); the events a
 * committed transaction recorded go to `after` (the relay's hand-off, or a plain wake-up of the
 * relay). After the commit because a relay acting earlier would find the rows not yet visible.
 * With `awaitPublication`, `run` returns only once the hand-off tried to publish them, so that
 * a caller's next request, to another service, finds them on the bus (D349).
 */
export function createUnitOfWork<DB>(
  db: Kysely<DB>,
  after: CommittedEvents | (() => void),
  options: { awaitPublication?: boolean } = {},
): UnitOfWork<DB> {
  const handOff = committedEventsOf(after);
  return {
    async run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      const recorded: EventEnvelope[] = [];
      const result = await db.transaction().execute((trx) =>
        work(
          listenForRecordedEvents(
            trx,
            (envelopes) => recorded.push(...envelopes),
            () => handOff.holdUntil(),
          ),
        ),
      );
      if (recorded.length > 0) {
        const published = handOff.committed(recorded);
        if (options.awaitPublication) await published;
      }
      return result;
    },
  };
}
