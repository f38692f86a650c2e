import { UnauthenticatedError } from "@petri/service-kit";
import { FakeClock } from "@petri/testkit";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import type { IdentityDb } from "../db/schema.js";
import { apiKeyChecksum, generateApiKeySecret } from "../security/api-keys.js";
import { makeAuthenticateApiKey } from "./authenticate-api-key.js";

/** A database that fails the test if anything touches it. */
const untouchable = new Proxy(
  {},
  {
    get(_target, property) {
      throw new Error(`the database was used (${String(property)}) for a key that fails its checksum`);
    },
  },
) as Kysely<IdentityDb>;

describe("authenticateApiKey before the database", () => {
  const authenticate = makeAuthenticateApiKey({
    db: untouchable,
    clock: new FakeClock(),
    apiKeyPepper: Buffer.alloc(32, 1),
  });

  it("refuses typos, bad checksums and foreign strings without a lookup", async () => {
    const good = generateApiKeySecret();
    const random = good.slice(9, 41);
    const badChecksum = `petri_sk_${random}${apiKeyChecksum(random) === "000000" ? "000001" : "000000"}`;
    const typo = `${good.slice(0, 20)}${good[20] === "a" ? "b" : "a"}${good.slice(21)}`;
    for (const secret of [badChecksum, typo, "", "sk_live_123", `${good}x`, good.toUpperCase()]) {
      await expect(authenticate(secret)).rejects.toThrow(UnauthenticatedError);
      await expect(authenticate(secret)).rejects.toThrow("invalid API key");
    }
  });

  it("does look up a well-formed key", async () => {
    await expect(authenticate(generateApiKeySecret())).rejects.toThrow(/database was used/);
  });
});
