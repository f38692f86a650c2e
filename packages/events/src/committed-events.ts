import type { EventEnvelope } from "@petri/contracts/common";

/**
 * What happens to the events a transaction recorded, once it committed. The outbox relay's
 * hand-off (OutboxRelay.committedEvents) reserves the rows as they are written and publishes
 * them from memory after the commit, so they are neither leased nor read back (D333); a plain
 * wake-up (`wakeRelayAfterCommit`) leaves them to the relay's next run.
 */
export interface CommittedEvents {
  /**
   * Until when rows recorded now are held for `committed` (the relay's own runs skip them until
   * then, and take them over after it should the process die); undefined: not held.
   */
  holdUntil(): Date | undefined;
  /**
   * Called once after the commit with the transaction's events, in the order recorded. The
   * relay's hand-off returns a promise settled once it tried to publish them (it never rejects).
   */
  committed(envelopes: readonly EventEnvelope[]): void | Promise<void>;
}

/** The events are left to the relay, woken by `wake` after the commit. */
export function wakeRelayAfterCommit(wake: () => void): CommittedEvents {
  return { holdUntil: () => undefined, committed: () => wake() };
}

/** A plain wake-up function stands for wakeRelayAfterCommit(it). */
export function committedEventsOf(after: CommittedEvents | (() => void)): CommittedEvents {
  return typeof after === "function" ? wakeRelayAfterCommit(after) : after;
}
