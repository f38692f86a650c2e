import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foundationScenarioTests } from "./foundation.suite.js";
import { type Target, sharedRateLimit } from "./scenarios.js";
import { clusterInfraReady, startClusterHost } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "cluster mode (a process per service, PostgreSQL, NATS JetStream)",
  () => {
    let host: Awaited<ReturnType<typeof startClusterHost>>;
    let target: Target;
    let reader: pg.Client;

    beforeAll(async () => {
      host = await startClusterHost("foundation");
      reader = new pg.Client({ connectionString: host.databaseUrl });
      await reader.connect();
      target = {
        baseUrl: host.baseUrls[0]!,
        contactFor: async (accountId) => {
          const result = await reader.query(
            "select email from notifications.account_contacts where account_id = $1",
            [accountId],
          );
          return result.rows[0] as { email: string } | undefined;
        },
      };
    }, 360_000);

    afterAll(async () => {
      await reader?.end();
      await host?.stop();
    }, 120_000);

    foundationScenarioTests(
      () => target,
      () => host.baseUrls,
    );
    it("a service port reached directly, without the gateway's internal token, is refused", async () => {
      const identityUrl = `http://127.0.0.1:${host.portBase + 1}`;
      const response = await fetch(`${identityUrl}/petri.identity.v1.IdentityService/GetAccount`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { code: string }).code).toBe("unauthenticated");
    });
    it("two gateway processes together admit no more than the account's limit", () =>
      sharedRateLimit(host.baseUrls));
  },
);
