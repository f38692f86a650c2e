import { randomBytes } from "node:crypto";
import { ConfigError, loadConfig } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { identityConfigSchema, identityOptionsFromConfig, standaloneIdentityConfigSchema } from "./config.js";

const kek = randomBytes(32).toString("base64");
const pepper = randomBytes(32).toString("base64");
const env = {
  DATABASE_URL: "postgres://petri@127.0.0.1:5432/petri",
  NATS_URL: "nats://127.0.0.1:4222",
  PETRI_INTERNAL_JWT_PUBLIC_KEY:
    "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----",
  PETRI_IDENTITY_KEK: kek,
  PETRI_API_KEY_PEPPER: pepper,
};

function problems(vars: Record<string, string | undefined>): string {
  try {
    loadConfig(identityConfigSchema(), vars);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("identity configuration", () => {
  it("parses secrets into bytes and defaults the token lifetime to 3600 s", () => {
    const config = loadConfig(identityConfigSchema(), env);
    expect(config.PETRI_IDENTITY_KEK).toEqual(Buffer.from(kek, "base64"));
    expect(config.PETRI_API_KEY_PEPPER).toEqual(Buffer.from(pepper, "base64"));
    expect(config.ACCESS_TOKEN_TTL_SECONDS).toBe(3600);
    expect(config.PORT).toBe(7101);
    expect(identityOptionsFromConfig(config)).toEqual({
      kek: config.PETRI_IDENTITY_KEK,
      apiKeyPepper: config.PETRI_API_KEY_PEPPER,
      accessTokenTtlSeconds: 3600,
      staff: undefined,
    });
  });

  it("fails naming every missing secret", () => {
    const message = problems({ ...env, PETRI_IDENTITY_KEK: undefined, PETRI_API_KEY_PEPPER: "" });
    expect(message).toContain("PETRI_IDENTITY_KEK: is required but not set");
    expect(message).toContain("PETRI_API_KEY_PEPPER: is required but not set");
  });

  it("explains a malformed secret without ever echoing it", () => {
    const shortKek = randomBytes(16).toString("base64");
    const shortPepper = randomBytes(31).toString("base64");
    const message = problems({ ...env, PETRI_IDENTITY_KEK: shortKek, PETRI_API_KEY_PEPPER: shortPepper });
    expect(message).toMatch(
      /PETRI_IDENTITY_KEK: must be exactly 32 bytes, base64-encoded .*\(decodes to 16 bytes\)/,
    );
    expect(message).toMatch(/PETRI_API_KEY_PEPPER: must be at least 32 bytes/);
    expect(message).not.toContain(shortKek);
    expect(message).not.toContain(shortPepper);
    const junk = "this is not base64 at all!";
    const junkMessage = problems({ ...env, PETRI_IDENTITY_KEK: junk });
    expect(junkMessage).toContain("(not valid base64)");
    expect(junkMessage).not.toContain(junk);
  });

  it("bounds the token lifetime", () => {
    expect(
      loadConfig(identityConfigSchema(), { ...env, ACCESS_TOKEN_TTL_SECONDS: "900" })
        .ACCESS_TOKEN_TTL_SECONDS,
    ).toBe(900);
    expect(problems({ ...env, ACCESS_TOKEN_TTL_SECONDS: "59" })).toContain(
      "ACCESS_TOKEN_TTL_SECONDS: must be at least 60",
    );
    expect(problems({ ...env, ACCESS_TOKEN_TTL_SECONDS: "1h" })).toContain("whole number of seconds");
  });

  it("wants both staff variables or neither, and a valid pair", () => {
    expect(problems({ ...env, PETRI_STAFF_EMAIL: "ops@example.org" })).toContain(
      "PETRI_STAFF_PASSWORD: is required but not set",
    );
    expect(problems({ ...env, PETRI_STAFF_PASSWORD: "long enough secret" })).toContain(
      "PETRI_STAFF_EMAIL: is required but not set",
    );
    const weak = problems({ ...env, PETRI_STAFF_EMAIL: "ops@example.org", PETRI_STAFF_PASSWORD: "hunter2" });
    expect(weak).toContain("PETRI_STAFF_PASSWORD: must be 10 to 128 characters");
    expect(weak).not.toContain("hunter2");
    const config = loadConfig(identityConfigSchema(), {
      ...env,
      PETRI_STAFF_EMAIL: " Ops@Example.org ",
      PETRI_STAFF_PASSWORD: "long enough secret",
    });
    expect(identityOptionsFromConfig(config).staff).toEqual({
      email: "ops@example.org",
      password: "long enough secret",
    });
  });

  it("in standalone mode needs no variable at all", () => {
    expect(loadConfig(standaloneIdentityConfigSchema(), {})).toEqual({ ACCESS_TOKEN_TTL_SECONDS: 3600 });
  });
});
