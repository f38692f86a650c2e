/** Cluster entry point: a missing or malformed secret stops the process at once, readably. */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const env = {
  PATH: process.env.PATH,
  // Nothing listens here: the process must fail on its configuration before connecting.
  DATABASE_URL: "postgres://petri@127.0.0.1:1/none",
  NATS_URL: "nats://127.0.0.1:1",
  PETRI_INTERNAL_JWT_PUBLIC_KEY:
    "-----BEGIN PUBLIC KEY-----\\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\\n-----END PUBLIC KEY-----",
};

function runMain(extra: Record<string, string>) {
  return spawnSync(process.execPath, ["--conditions=@petri/source", "--import", "tsx", main], {
    env: { ...env, ...extra },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("identity main.ts", () => {
  it("exits 1 naming the missing KEK and pepper", () => {
    const result = runMain({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Invalid configuration (2 problems)");
    expect(result.stderr).toContain("PETRI_IDENTITY_KEK: is required but not set");
    expect(result.stderr).toContain("PETRI_API_KEY_PEPPER: is required but not set");
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("exits 1 on a malformed KEK without printing it", () => {
    const kek = "AAAAAAAAAAAAAAAAAAAAAA==";
    const result = runMain({
      PETRI_IDENTITY_KEK: kek,
      PETRI_API_KEY_PEPPER: Buffer.alloc(32, 1).toString("base64"),
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PETRI_IDENTITY_KEK: must be exactly 32 bytes");
    expect(result.stderr).not.toContain(kek);
  });
});
