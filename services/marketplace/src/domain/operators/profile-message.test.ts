/**
 * The proto messages petri.marketplace.v1.OperatorProfile and VerificationRecord are the one
 * definition of these models' shape (decisions.md D335): every profile and verification
 * record the fixtures hold, once the domain has validated it (stored form: BSL spelled BSL-1 or
 * BSL-2, defaults filled in), maps onto the message and back to the same REST JSON.
 */
import { readFileSync } from "node:fs";

import { OperatorProfileSchema, VerificationRecordSchema } from "@petri/contracts/marketplace";
import { RestJsonError, fromRestJson, toRestJson } from "@petri/contracts/rest-json";
import { operatorProfile, verificationRecord } from "@petri/testkit";
import { describe, expect, it } from "vitest";

import { profileInput, verification } from "../../../test/support/operators.js";
import { validateOperatorProfile } from "./profile.js";
import { validateVerificationRecord } from "./verification.js";

const example = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../../docs/examples/${name}`, import.meta.url), "utf8"));

const stored = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const profiles: Record<string, unknown> = {
  "docs/examples/profile.json": example("profile.json"),
  "testkit operatorProfile": operatorProfile("Fixture Lab"),
  "marketplace test profileInput": profileInput(),
};
const records: Record<string, unknown> = {
  "docs/examples/verification.json": example("verification.json"),
  "testkit verificationRecord": verificationRecord(),
  "marketplace test verification": verification(),
  "with verified equipment and notes": verification({
    verified_equipment: ["incubator"],
    notes: "site visit",
  }),
};

describe("OperatorProfile message", () => {
  it.each(Object.entries(profiles))("%s round-trips through the message", (_, input) => {
    const result = validateOperatorProfile(input);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const message = fromRestJson(OperatorProfileSchema, stored(result.value) as never);
    expect(toRestJson(OperatorProfileSchema, message)).toEqual(stored(result.value));
  });

  it("refuses a field the message does not have, with its path", () => {
    const profile = stored(operatorProfile("Fixture Lab")) as { identity: Record<string, unknown> };
    profile.identity.colour = "blue";
    expect(() => fromRestJson(OperatorProfileSchema, profile as never)).toThrow(
      new RestJsonError("identity.colour", "is not a field of this object"),
    );
  });

  it("refuses an enum spelling the definition does not have", () => {
    const profile = stored(operatorProfile("Fixture Lab")) as { capabilities: Record<string, unknown> };
    profile.capabilities.experiment_types = ["MIC_MBC_ASSAY", "mic_mbc_assay"];
    expect(() => fromRestJson(OperatorProfileSchema, profile as never)).toThrow(
      /capabilities.experiment_types\[1\]/,
    );
  });
});

describe("VerificationRecord message", () => {
  it.each(Object.entries(records))("%s round-trips through the message", (_, input) => {
    const result = validateVerificationRecord(input);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const message = fromRestJson(VerificationRecordSchema, stored(result.value) as never);
    // A repeated field cannot tell absent from empty: an absent verified_equipment reads as [].
    expect(toRestJson(VerificationRecordSchema, message)).toEqual({
      verified_equipment: [],
      ...(stored(result.value) as object),
    });
  });
});
