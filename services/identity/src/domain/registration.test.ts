import { describe, expect, it } from "vitest";
import { PASSWORD_MAX_LENGTH, normalizeEmail, validateRegistration } from "./registration.js";

const valid = {
  email: " Ada@Example.org ",
  password: "correct horse battery",
  name: "Ada",
  organization: "Lab",
};

describe("validateRegistration", () => {
  it("accepts a valid registration and normalises the e-mail", () => {
    expect(validateRegistration(valid)).toEqual([]);
    expect(normalizeEmail(valid.email)).toBe("ada@example.org");
  });

  it("reports every bad field with a code", () => {
    const problems = validateRegistration({ email: "nope", password: "short", name: " ", organization: "" });
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ["email", "invalid_value"],
      ["password", "invalid_value"],
      ["name", "missing_required"],
    ]);
  });

  it("bounds the password length before any hashing", () => {
    const long = "x".repeat(PASSWORD_MAX_LENGTH + 1);
    expect(validateRegistration({ ...valid, password: long })[0]?.field).toBe("password");
    expect(validateRegistration({ ...valid, password: "x".repeat(PASSWORD_MAX_LENGTH) })).toEqual([]);
  });
});
