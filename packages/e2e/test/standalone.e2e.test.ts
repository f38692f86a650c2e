import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foundationScenarioTests } from "./foundation.suite.js";
import { type Target, healthReportsEveryService } from "./scenarios.js";
import { loginLockoutSparesTheOffice } from "./login-limits.scenarios.js";
import { startStandaloneHost } from "./support/hosts.js";

describe("standalone mode (one process, embedded PostgreSQL, in-process bus)", () => {
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let target: Target;

  beforeAll(async () => {
    host = await startStandaloneHost("petri-e2e");
    target = {
      get baseUrl() {
        return host.petri.url;
      },
      contactFor: async (accountId) =>
        (await host.petri.database
          .forSchema<any>("notifications")
          .selectFrom("account_contacts")
          .select("email")
          .where("account_id", "=", accountId)
          .executeTakeFirst()) as { email: string } | undefined,
    };
  });

  afterAll(() => host?.stop());

  foundationScenarioTests(
    () => target,
    () => [target.baseUrl],
  );
  it(
    "20 wrong passwords lock that account at that address, not a colleague behind it",
    () => loginLockoutSparesTheOffice(target),
    120_000, // up to three tries when a try ends past its rate-limit window
  );

  it("keeps its data across a restart on the same data directory", async () => {
    const email = `restart-${Date.now()}@example.org`;
    const register = (url: string) =>
      fetch(`${url}/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "a long enough password", name: "Rosalind" }),
      });
    expect((await register(target.baseUrl)).status).toBe(201);
    await host.restart();
    expect((await register(target.baseUrl)).status).toBe(409);
    await healthReportsEveryService(target);
  });
});
