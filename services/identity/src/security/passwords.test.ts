import argon2 from "argon2";
import { describe, expect, it } from "vitest";
import { ARGON2_COST, argon2ParametersOf, hashPassword, needsRehash, verifyPassword } from "./passwords.js";

const salt = "c29tZXNhbHRzb21lc2FsdA";
const digest = "aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g";
const phc = (head: string) => `$${head}$${salt}$${digest}`;

describe("password hashes", () => {
  it("uses argon2id with at least OWASP's parameters (K1)", async () => {
    const hash = await hashPassword("correct horse battery");
    const params = argon2ParametersOf(hash);
    expect(params).toMatchObject({ variant: "argon2id", version: 0x13, parallelism: 1 });
    expect(params!.memoryCost).toBeGreaterThanOrEqual(19_456);
    expect(params!.timeCost).toBeGreaterThanOrEqual(2);
    expect(await verifyPassword(hash, "correct horse battery")).toBe(true);
    expect(await verifyPassword(hash, "correct horse batterY")).toBe(false);
    expect(await verifyPassword("not a hash", "x")).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it("parses PHC strings", () => {
    expect(argon2ParametersOf(phc("argon2id$v=19$m=19456,t=2,p=1"))).toEqual({
      variant: "argon2id",
      version: 19,
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
    expect(argon2ParametersOf(phc("argon2i$m=4096,t=3,p=1"))?.version).toBe(0x10);
    expect(argon2ParametersOf("$2b$10$abcdefghijklmnopqrstuv")).toBeUndefined();
  });

  it("asks for a rehash only when the stored hash is weaker than today's (K2)", () => {
    const current = `argon2id$v=19$m=${ARGON2_COST.memoryCost},t=${ARGON2_COST.timeCost},p=1`;
    expect(needsRehash(phc(current))).toBe(false);
    expect(needsRehash(phc("argon2id$v=19$m=65536,t=3,p=4"))).toBe(false);
    expect(needsRehash(phc("argon2id$v=19$m=4096,t=2,p=1"))).toBe(true);
    expect(needsRehash(phc("argon2id$v=19$m=19456,t=1,p=1"))).toBe(true);
    expect(needsRehash(phc("argon2i$v=19$m=65536,t=3,p=1"))).toBe(true);
    expect(needsRehash(phc("argon2id$v=16$m=65536,t=3,p=1"))).toBe(true);
    expect(needsRehash("garbage")).toBe(true);
  });

  it("recognises an old-parameter hash made by the library", async () => {
    const old = await argon2.hash("correct horse battery", {
      type: argon2.argon2id,
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
    });
    expect(needsRehash(old)).toBe(true);
    expect(await verifyPassword(old, "correct horse battery")).toBe(true);
  });
});
