import { ConfigError, checkWebhookUrl, loadConfig } from "@petri/service-kit";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { rootCertificates } from "node:tls";
import { describe, expect, it } from "vitest";
import {
  notificationsConfigSchema,
  notificationsOptionsFromConfig,
  standaloneNotificationsConfigSchema,
} from "./config.js";

const cluster = {
  DATABASE_URL: "postgres://petri@127.0.0.1:5432/petri",
  NATS_URL: "nats://127.0.0.1:4222",
  PETRI_INTERNAL_JWT_PUBLIC_KEY: "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----",
  PETRI_NOTIFICATIONS_KEK: randomBytes(32).toString("base64"),
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(notificationsConfigSchema(), env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.variable}: ${p.problem}`);
    throw error;
  }
  return [];
}

describe("notifications configuration", () => {
  it("S4: the production configuration has no allowlist and refuses every non-https or private URL", () => {
    const options = notificationsOptionsFromConfig(
      loadConfig(notificationsConfigSchema(), { ...cluster, NODE_ENV: "production" }),
    );
    expect(options.webhookTestAllowlist?.size).toBe(0);
    expect(options.mailer).toBeUndefined();
    expect(checkWebhookUrl("http://hooks.example.com/", options.webhookTestAllowlist!).ok).toBe(false);
    expect(checkWebhookUrl("https://127.0.0.1/", options.webhookTestAllowlist!).ok).toBe(false);
  });

  it("fails fast when production sets the test allowlist", () => {
    expect(
      problems({ ...cluster, NODE_ENV: "production", PETRI_WEBHOOK_TEST_ALLOWLIST: "127.0.0.1/32" }),
    ).toEqual([
      'PETRI_WEBHOOK_TEST_ALLOWLIST: is for tests only and must not be set when NODE_ENV is production (got "127.0.0.1/32")',
    ]);
  });

  it("takes a test CA file outside production, in addition to the system roots, and refuses it in production", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "petri-ca-"));
    const file = path.join(dir, "ca.pem");
    const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    writeFileSync(file, pem);
    try {
      const options = notificationsOptionsFromConfig(
        loadConfig(notificationsConfigSchema(), { ...cluster, PETRI_WEBHOOK_TEST_CA_FILE: file }),
      );
      expect(options.webhookCa).toEqual([...rootCertificates, pem]);
      expect(problems({ ...cluster, NODE_ENV: "production", PETRI_WEBHOOK_TEST_CA_FILE: file })[0]).toMatch(
        /^PETRI_WEBHOOK_TEST_CA_FILE: is for tests only/,
      );
      expect(problems({ ...cluster, PETRI_WEBHOOK_TEST_CA_FILE: path.join(dir, "missing.pem") })[0]).toMatch(
        /^PETRI_WEBHOOK_TEST_CA_FILE: must be a readable PEM file/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(
      notificationsOptionsFromConfig(loadConfig(notificationsConfigSchema(), cluster)).webhookCa,
    ).toBeUndefined();
  });

  it("accepts the allowlist outside production, and names malformed blocks", () => {
    const config = loadConfig(notificationsConfigSchema(), {
      ...cluster,
      PETRI_WEBHOOK_TEST_ALLOWLIST: "127.0.0.1/32, ::1",
    });
    expect(notificationsOptionsFromConfig(config).webhookTestAllowlist?.size).toBe(2);
    expect(problems({ ...cluster, PETRI_WEBHOOK_TEST_ALLOWLIST: "127.0.0.1/40" })[0]).toMatch(
      /^PETRI_WEBHOOK_TEST_ALLOWLIST: must be CIDR blocks/,
    );
  });

  it("requires a 32-byte KEK in cluster mode without ever echoing it", () => {
    const { PETRI_NOTIFICATIONS_KEK: _kek, ...withoutKek } = cluster;
    expect(problems(withoutKek)).toContain("PETRI_NOTIFICATIONS_KEK: is required but not set");
    const short = randomBytes(16).toString("base64");
    const reported = problems({ ...cluster, PETRI_NOTIFICATIONS_KEK: short });
    expect(reported[0]).toMatch(/must be exactly 32 bytes/);
    expect(reported.join()).not.toContain(short);
  });

  it("uses SMTP only when a host is configured", () => {
    const config = loadConfig(notificationsConfigSchema(), {
      ...cluster,
      PETRI_SMTP_HOST: "smtp.example.org",
      PETRI_SMTP_SECURE: "true",
      PETRI_SMTP_PORT: "465",
    });
    expect(notificationsOptionsFromConfig(config).mailer?.transport).toBe("smtp");
    expect(problems({ ...cluster, PETRI_SMTP_SECURE: "maybe" })[0]).toMatch(/PETRI_SMTP_SECURE/);
  });

  it("standalone: the KEK is optional (the data directory keeps one)", () => {
    const options = notificationsOptionsFromConfig(
      loadConfig(standaloneNotificationsConfigSchema(), {}),
      "/tmp/petri",
    );
    expect(options.kek).toBeUndefined();
    expect(options.dataDir).toBe("/tmp/petri");
  });
});
