import { describe, it } from "vitest";
import {
  demotionEndsAdminAccess,
  passwordChangeEndsTokens,
  revokeEndsToken,
} from "./revocation.scenarios.js";
import { standaloneOfBlock } from "./support/blocks.js";

describe(
  "revoked rights end at once, standalone mode (one process, in-process bus)",
  { timeout: 120_000 },
  () => {
    const deployment = standaloneOfBlock("petri-e2e-revocation");

    it("a demoted staff account loses /admin with its Bearer token and its API key", () =>
      demotionEndsAdminAccess(deployment.target));
    it("POST /auth/token/revoke ends one token", () => revokeEndsToken(deployment.target));
    it("a password change ends the older access tokens", () => passwordChangeEndsTokens(deployment.target));
  },
);
