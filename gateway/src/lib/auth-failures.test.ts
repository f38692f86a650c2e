import { describe, expect, it } from "vitest";
import { headerCredential, loginCredential, pairSubject } from "./auth-failures.js";

describe("failed-authentication subjects", () => {
  it("names a login by its e-mail as identity compares it", () => {
    expect(loginCredential(" Ada@Example.ORG ")).toBe(loginCredential("ada@example.org"));
    expect(loginCredential("ada@example.org")).not.toBe(loginCredential("bob@example.org"));
  });

  it("keeps an API key and an Authorization header with the same text apart", () => {
    expect(headerCredential(undefined, "abc")).not.toBe(headerCredential("abc", undefined));
    expect(headerCredential("Bearer abc ", undefined)).toBe(headerCredential("Bearer abc", undefined));
  });

  it("stores a digest of the credential, never the credential, and fits identity's 200-character subjects", () => {
    const address = "2001:db8:85a3:8d3:1319:8a2e:370:7348/64";
    const email = `${"a".repeat(240)}@example.org`;
    const key = "petri_sk_" + "Z".repeat(38);
    for (const credential of [loginCredential(email), headerCredential(undefined, key)]) {
      const subject = pairSubject(credential, address);
      expect(subject.endsWith(`@${address}`)).toBe(true);
      expect(subject).not.toContain("aaaa");
      expect(subject).not.toContain(key);
      expect(subject.length).toBeLessThanOrEqual(200);
    }
    expect(pairSubject(loginCredential(email), address)).not.toBe(
      pairSubject(loginCredential(email), "192.0.2.1"),
    );
  });
});
