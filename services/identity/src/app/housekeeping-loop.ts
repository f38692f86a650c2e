import { BackgroundLoop, type Clock, type Logger } from "@petri/service-kit";
import type { PurgeResult } from "./purge-expired-records.js";

/**
 * Runs the purge of expired records every `intervalMs` of the service clock, the first one
 * interval after the start. Between purges a step only says when the next one is due (no
 * statement), so the loop's safety poll costs nothing; a purge that fails is retried by the
 * loop after a back-off.
 */
export function housekeepingLoop(deps: {
  purge: () => Promise<PurgeResult>;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
}): BackgroundLoop {
  const { clock, logger, intervalMs } = deps;
  let nextPurgeAt: Date | undefined;
  return new BackgroundLoop({
    name: "identity-housekeeping",
    clock,
    logger,
    async step() {
      const now = clock.now();
      nextPurgeAt ??= new Date(now.getTime() + intervalMs);
      if (now < nextPurgeAt) return { again: false, dueAt: nextPurgeAt };
      const purged = await deps.purge();
      if (purged.quotaCounters + purged.signingKeys + purged.revokedTokens > 0)
        logger.debug(purged, "purged expired identity records");
      nextPurgeAt = new Date(clock.now().getTime() + intervalMs);
      return { again: false, dueAt: nextPurgeAt };
    },
  });
}
