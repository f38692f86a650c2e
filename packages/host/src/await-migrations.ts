import type { Clock, HostedService, Logger } from "@petri/service-kit";

/** The name of the readiness check that reports whether the schema is at the newest migration. */
export const MIGRATIONS_CHECK = "migrations";

export interface AwaitMigrationsOptions {
  hosted: Pick<HostedService, "name" | "readiness">;
  clock: Clock;
  logger: Logger;
  /** Between two looks at the migration table. */
  intervalMs: number;
  /** Shutdown: stop waiting. */
  signal: AbortSignal;
}

/**
 * For replicas that leave migrating to a separate step (a Kubernetes Job): waits until the
 * service's readiness says its migrations are at head. Resolves true then, false if `signal`
 * aborted first. A failing look (database down) counts as "not yet" and is retried.
 */
export async function awaitMigrations(options: AwaitMigrationsOptions): Promise<boolean> {
  const { hosted, clock, logger, signal } = options;
  let lastDetail: string | undefined;
  while (!signal.aborted) {
    let detail: string;
    try {
      const check = (await hosted.readiness()).checks.find((c) => c.name === MIGRATIONS_CHECK);
      // No migrations check: the service keeps no schema of its own.
      if (check === undefined || check.ok) return true;
      detail = check.detail ?? "pending";
    } catch (error) {
      detail = `cannot read the migration state: ${(error as Error).message}`;
    }
    if (detail !== lastDetail) {
      logger.info(
        { service: hosted.name, detail },
        "waiting for the migrate step (PETRI_MIGRATE_ON_START=false); not ready until it is done",
      );
      lastDetail = detail;
    }
    await clock.sleep(options.intervalMs, signal);
  }
  return false;
}
