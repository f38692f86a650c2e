/**
 * The opt-in databases of standalone mode still start a working host: PGlite
 * (PETRI_EMBEDDED_DB=pglite) and an existing PostgreSQL server (PETRI_DATABASE_URL).
 */
import { Failpoints, createLogger, systemClock } from "@petri/service-kit";
import { loadOrCreateIdentitySecrets } from "@petri/identity";
import { createTestDatabase, postgresAvailable, requireInfra } from "@petri/testkit";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type StandaloneDatabase, startStandalone } from "../src/host.js";

const withPostgres = requireInfra("PostgreSQL", await postgresAvailable());

describe("standalone on an opt-in database", { timeout: 180_000 }, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function healthyOn(database: StandaloneDatabase) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "petri-standalone-db-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const petri = await startStandalone({
      dataDir,
      database,
      identity: await loadOrCreateIdentitySecrets(dataDir),
      port: 0,
      host: "127.0.0.1",
      logger: createLogger({ service: "standalone-test", level: "warn" }),
      clock: systemClock,
      failpoints: new Failpoints(),
    });
    cleanups.push(() => petri.stop());
    const health = await fetch(`${petri.url}/health`);
    expect(health.status).toBe(200);
    expect(petri.databaseServerPid).toBeUndefined();
    return petri;
  }

  it("PGlite in the process (PETRI_EMBEDDED_DB=pglite)", async () => {
    const petri = await healthyOn({ kind: "pglite" });
    expect(petri.database.driver).toBe("pglite");
  });

  it.runIf(withPostgres)("an existing PostgreSQL database (PETRI_DATABASE_URL)", async () => {
    const database = await createTestDatabase("petri_standalone_url");
    cleanups.push(() => database.drop());
    const petri = await healthyOn({ kind: "url", url: database.url });
    expect(petri.database.driver).toBe("pg");
  });
});
