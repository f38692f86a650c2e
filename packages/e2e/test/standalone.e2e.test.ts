import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Failpoints, createLogger, systemClock } from "@petri/service-kit";
import { loadOrCreateIdentitySecrets } from "@petri/identity";
import { type Standalone, startStandalone } from "@petri/standalone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Target,
  credentialsLifecycle,
  staffChangesTier,
  errorsHaveOneShape,
  healthReportsEveryService,
  registrationEventReachesNotifications,
} from "./scenarios.js";

const staff = { email: "staff@petri.test", password: "staff password for e2e" };

const start = async (dataDir: string) =>
  startStandalone({
    dataDir,
    identity: { ...(await loadOrCreateIdentitySecrets(dataDir)), staff },
    port: 0,
    host: "127.0.0.1",
    logger: createLogger({ service: "e2e", level: "warn" }),
    clock: systemClock,
    failpoints: new Failpoints(),
  });

describe("standalone mode (one process, PGlite, in-process bus)", () => {
  let petri: Standalone;
  let dataDir: string;
  let target: Target;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "petri-e2e-"));
    petri = await start(dataDir);
    target = {
      baseUrl: petri.url,
      contactFor: async (accountId) =>
        (await petri.database
          .forSchema<any>("notifications")
          .selectFrom("account_contacts")
          .select("email")
          .where("account_id", "=", accountId)
          .executeTakeFirst()) as { email: string } | undefined,
    };
  });

  afterAll(async () => {
    await petri?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("GET /health reports every service ready over Connect", () => healthReportsEveryService(target));
  it("an event written through identity's outbox is consumed by notifications", () =>
    registrationEventReachesNotifications(target));
  it("errors have the spec's shape", () => errorsHaveOneShape(target));
  it("register -> token -> me -> API key -> revoke -> 401", () => credentialsLifecycle(target));
  it("the bootstrapped staff account changes an account's tier", () => staffChangesTier(target, staff));

  it("keeps its data across a restart on the same data directory", async () => {
    const email = `restart-${Date.now()}@example.org`;
    const register = (url: string) =>
      fetch(`${url}/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "a long enough password", name: "Rosalind" }),
      });
    expect((await register(petri.url)).status).toBe(201);
    await petri.stop();
    petri = await start(dataDir);
    expect((await register(petri.url)).status).toBe(409);
    await healthReportsEveryService({ ...target, baseUrl: petri.url });
  });
});
