import { afterAll, beforeAll, describe, it } from "vitest";
import {
  type RevocationTarget,
  demotionEndsAdminAccess,
  passwordChangeEndsTokens,
  revokeEndsToken,
} from "./revocation.scenarios.js";
import { STAFF, clusterInfraReady, startClusterHost } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "revoked rights end at once, cluster mode (a process per service, two gateways)",
  { timeout: 120_000 },
  () => {
    let host: Awaited<ReturnType<typeof startClusterHost>>;
    let target: RevocationTarget;

    beforeAll(async () => {
      host = await startClusterHost("revocation");
      target = { baseUrls: host.baseUrls, staff: STAFF };
    }, 360_000);

    afterAll(async () => {
      await host?.stop();
    }, 120_000);

    it("a demoted staff account loses /admin on both gateways, Bearer token and API key", () =>
      demotionEndsAdminAccess(target));
    it("POST /auth/token/revoke on one gateway ends the token on both", () => revokeEndsToken(target));
    it("a password change ends the older access tokens on both gateways", () =>
      passwordChangeEndsTokens(target));
  },
);
