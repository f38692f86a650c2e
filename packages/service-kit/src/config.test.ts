import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  ConfigError,
  baseServiceConfigSchema,
  exitOnConfigError,
  loadConfig,
  logLevelSchema,
  portSchema,
} from "./config.js";

const PEM =
  "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----";

const clusterEnv = {
  DATABASE_URL: "postgres://identity:pw@127.0.0.1:5432/petri",
  NATS_URL: "nats://127.0.0.1:4222",
  PETRI_INTERNAL_JWT_PUBLIC_KEY: PEM,
};

describe("loadConfig", () => {
  it("applies defaults: the caller's port, loopback host, info logs, 25 s shutdown", () => {
    const config = loadConfig(baseServiceConfigSchema({ defaultPort: 7101 }), clusterEnv);
    expect(config).toMatchObject({
      PORT: 7101,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      SHUTDOWN_TIMEOUT_MS: 25_000,
      DATABASE_URL: clusterEnv.DATABASE_URL,
    });
  });

  it("parses values and lets services extend the base schema", () => {
    const schema = baseServiceConfigSchema({ defaultPort: 7101 }).extend({
      DB_SCHEMA: z.string().default("identity"),
    });
    const config = loadConfig(schema, { ...clusterEnv, PORT: "9000", LOG_LEVEL: "debug", HOST: "0.0.0.0" });
    expect(config.PORT).toBe(9000);
    expect(config.LOG_LEVEL).toBe("debug");
    expect(config.HOST).toBe("0.0.0.0");
    expect(config.DB_SCHEMA).toBe("identity");
  });

  it("reads LOG_FORMAT pretty, and refuses a format it does not know", () => {
    const schema = baseServiceConfigSchema({ defaultPort: 7101 });
    expect(loadConfig(schema, { ...clusterEnv, LOG_FORMAT: "pretty" }).LOG_FORMAT).toBe("pretty");
    expect(() => loadConfig(schema, { ...clusterEnv, LOG_FORMAT: "text" })).toThrow(
      'LOG_FORMAT: must be one of json, pretty (got "text")',
    );
  });

  it("accepts a JWK as the internal public key, and PEM newlines written as \\n", () => {
    const jwk = JSON.stringify({
      kty: "OKP",
      crv: "Ed25519",
      x: "Gb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE",
    });
    const schema = baseServiceConfigSchema({ defaultPort: 1 });
    expect(
      loadConfig(schema, { ...clusterEnv, PETRI_INTERNAL_JWT_PUBLIC_KEY: jwk }).PETRI_INTERNAL_JWT_PUBLIC_KEY,
    ).toBe(jwk);
    const escaped = PEM.replaceAll("\n", "\\n");
    expect(
      loadConfig(schema, { ...clusterEnv, PETRI_INTERNAL_JWT_PUBLIC_KEY: escaped })
        .PETRI_INTERNAL_JWT_PUBLIC_KEY,
    ).toBe(PEM);
  });

  it("lists every bad variable readably in one error", () => {
    let error: unknown;
    try {
      loadConfig(baseServiceConfigSchema({ defaultPort: 7101 }), {
        PORT: "http",
        LOG_LEVEL: "loud",
        NATS_URL: "127.0.0.1:4222",
        SHUTDOWN_TIMEOUT_MS: "-5",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain("Invalid configuration (6 problems):");
    expect(message).toContain('  - PORT: must be a whole number between 0 and 65535 (got "http")');
    expect(message).toContain(
      '  - LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    );
    expect(message).toContain("  - DATABASE_URL: is required but not set");
    expect(message).toContain(
      '  - NATS_URL: must be one or more nats:// URLs separated by commas (got "127.0.0.1:4222")',
    );
    expect(message).toContain("  - PETRI_INTERNAL_JWT_PUBLIC_KEY: is required but not set");
    expect(message).toContain('  - SHUTDOWN_TIMEOUT_MS: must be a whole number of milliseconds (got "-5")');
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual([
      "PORT",
      "LOG_LEVEL",
      "SHUTDOWN_TIMEOUT_MS",
      "DATABASE_URL",
      "NATS_URL",
      "PETRI_INTERNAL_JWT_PUBLIC_KEY",
    ]);
  });

  it("never echoes the value of a variable named like a secret, even if a refinement quotes it", () => {
    const schema = z.object({
      STRIPE_SECRET: z.string().min(40),
      DB_PASSWORD: z
        .string()
        .refine((v) => v !== "hunter2", { error: (i) => `"${String(i.input)}" is too weak` }),
      SIGNING_KEY: z.string().regex(/^k_/),
      API_TOKEN: z.enum(["a", "b"]),
      PETRI_IDENTITY_KEK: z.string().length(44),
      API_PEPPER: z.string().length(44),
      PLAIN: z.enum(["x"]),
    });
    const env = {
      STRIPE_SECRET: "sk_live_abc",
      DB_PASSWORD: "hunter2",
      SIGNING_KEY: "zzz-private",
      API_TOKEN: "tok_123",
      PETRI_IDENTITY_KEK: "kek-material",
      API_PEPPER: "pepper-material",
      PLAIN: "shown",
    };
    let message = "";
    try {
      loadConfig(schema, env);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("STRIPE_SECRET:");
    expect(message).toContain("DB_PASSWORD:");
    expect(message).toContain("SIGNING_KEY:");
    expect(message).toContain("API_TOKEN:");
    expect(message).toContain("PETRI_IDENTITY_KEK:");
    expect(message).toContain("API_PEPPER:");
    for (const secret of [
      "sk_live_abc",
      "hunter2",
      "zzz-private",
      "tok_123",
      "kek-material",
      "pepper-material",
    ])
      expect(message).not.toContain(secret);
    expect(message).toContain('(got "shown")');
  });

  it("never echoes the password of a connection URL it refuses", () => {
    const message = (() => {
      try {
        loadConfig(baseServiceConfigSchema({ defaultPort: 7101 }), {
          ...clusterEnv,
          DATABASE_URL: "mysql://petri:s3cret-pw@db.internal:3306/petri",
        });
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    })();
    expect(message).toContain('(got "mysql://petri:[redacted]@db.internal:3306/petri")');
    expect(message).not.toContain("s3cret-pw");
  });

  it("treats empty strings as unset, so defaults apply and required ones say 'not set'", () => {
    const config = loadConfig(baseServiceConfigSchema({ defaultPort: 7101 }), {
      ...clusterEnv,
      PORT: "",
      LOG_LEVEL: "",
    });
    expect(config.PORT).toBe(7101);
    expect(config.LOG_LEVEL).toBe("info");
    expect(() =>
      loadConfig(baseServiceConfigSchema({ defaultPort: 1 }), { ...clusterEnv, DATABASE_URL: "" }),
    ).toThrow("DATABASE_URL: is required but not set");
  });

  it("makes the cluster bindings optional in standalone mode", () => {
    const config = loadConfig(baseServiceConfigSchema({ defaultPort: 7101, mode: "standalone" }), {});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(7101);
  });
});

describe("reusable schema pieces", () => {
  it("portSchema takes 0..65535 whole numbers only", () => {
    expect(portSchema.parse("0")).toBe(0);
    expect(portSchema.parse("65535")).toBe(65535);
    for (const bad of ["65536", "-1", "80.5", "eighty", " "])
      expect(portSchema.safeParse(bad).success).toBe(false);
  });

  it("logLevelSchema takes pino's level names", () => {
    expect(logLevelSchema.parse("warn")).toBe("warn");
    expect(logLevelSchema.safeParse("verbose").success).toBe(false);
  });
});

describe("exitOnConfigError", () => {
  it("prints the message to stderr and exits 1 on a ConfigError", () => {
    const io = { writeError: vi.fn(), exit: vi.fn() };
    expect(() => exitOnConfigError(() => loadConfig(z.object({ PORT: portSchema }), {}), io)).toThrow(
      ConfigError,
    );
    expect(io.writeError).toHaveBeenCalledWith(
      "Invalid configuration (1 problem):\n  - PORT: is required but not set\n",
    );
    expect(io.exit).toHaveBeenCalledWith(1);
  });

  it("handles async main functions too, and passes other errors and results through", async () => {
    const io = { writeError: vi.fn(), exit: vi.fn() };
    await expect(
      exitOnConfigError(async () => loadConfig(z.object({ PORT: portSchema }), {}), io),
    ).rejects.toBeInstanceOf(ConfigError);
    expect(io.exit).toHaveBeenCalledWith(1);

    const other = { writeError: vi.fn(), exit: vi.fn() };
    expect(() =>
      exitOnConfigError(() => {
        throw new TypeError("bug");
      }, other),
    ).toThrow("bug");
    expect(exitOnConfigError(() => 42, other)).toBe(42);
    expect(other.exit).not.toHaveBeenCalled();
  });
});
