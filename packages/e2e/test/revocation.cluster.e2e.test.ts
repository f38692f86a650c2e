import { describe, it } from "vitest";
import {
  demotionEndsAdminAccess,
  passwordChangeEndsTokens,
  revokeEndsToken,
} from "./revocation.scenarios.js";
import { clusterOfBlock } from "./support/blocks.js";
import { clusterInfraReady } from "./support/hosts.js";

describe.skipIf(!(await clusterInfraReady()))(
  "revoked rights end at once, cluster mode (a process per service, two gateways)",
  { timeout: 120_000 },
  () => {
    const deployment = clusterOfBlock("revocation");

    it("a demoted staff account loses /admin on both gateways, Bearer token and API key", () =>
      demotionEndsAdminAccess(deployment.target));
    it("POST /auth/token/revoke on one gateway ends the token on both", () =>
      revokeEndsToken(deployment.target));
    it("a password change ends the older access tokens on both gateways", () =>
      passwordChangeEndsTokens(deployment.target));
  },
);
