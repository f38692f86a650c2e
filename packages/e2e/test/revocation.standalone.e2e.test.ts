import { afterAll, beforeAll, describe, it } from "vitest";
import {
  type RevocationTarget,
  demotionEndsAdminAccess,
  passwordChangeEndsTokens,
  revokeEndsToken,
} from "./revocation.scenarios.js";
import { STAFF, startStandaloneHost } from "./support/hosts.js";

describe(
  "revoked rights end at once, standalone mode (one process, in-process bus)",
  { timeout: 120_000 },
  () => {
    let host: Awaited<ReturnType<typeof startStandaloneHost>>;
    let target: RevocationTarget;

    beforeAll(async () => {
      host = await startStandaloneHost("petri-e2e-revocation");
      target = { baseUrls: [host.petri.url], staff: STAFF };
    });

    afterAll(() => host?.stop());

    it("a demoted staff account loses /admin with its Bearer token and its API key", () =>
      demotionEndsAdminAccess(target));
    it("POST /auth/token/revoke ends one token", () => revokeEndsToken(target));
    it("a password change ends the older access tokens", () => passwordChangeEndsTokens(target));
  },
);
