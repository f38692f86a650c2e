import { ConfigError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { DEFAULT_RETENTION, MIN_INBOX_RETENTION_MS, retentionFromEnv } from "./retention.js";

describe("retentionFromEnv", () => {
  it("gives the documented defaults when nothing is set", () => {
    expect(retentionFromEnv({})).toEqual(DEFAULT_RETENTION);
    expect(DEFAULT_RETENTION.inboxMs).toBeGreaterThanOrEqual(MIN_INBOX_RETENTION_MS);
  });

  it("reads hours, minutes and rows", () => {
    const settings = retentionFromEnv({
      PETRI_RETENTION_INBOX_HOURS: "200",
      PETRI_RETENTION_SENT_OUTBOX_HOURS: "2",
      PETRI_RETENTION_DEAD_LETTERS_HOURS: "48",
      PETRI_RETENTION_IDEMPOTENCY_HOURS: "36",
      PETRI_RETENTION_WEBHOOK_ATTEMPTS_HOURS: "100",
      PETRI_RETENTION_INTERVAL_MINUTES: "5",
      PETRI_RETENTION_BATCH_SIZE: "50",
    });
    expect(settings).toEqual({
      inboxMs: 200 * 3600_000,
      sentOutboxMs: 2 * 3600_000,
      deadLettersMs: 48 * 3600_000,
      idempotencyMs: 36 * 3600_000,
      webhookAttemptsMs: 100 * 3600_000,
      intervalMs: 5 * 60_000,
      batchSize: 50,
    });
  });

  it("refuses an inbox retention shorter than any redelivery of an applied event", () => {
    expect(() => retentionFromEnv({ PETRI_RETENTION_INBOX_HOURS: "167" })).toThrow(ConfigError);
    expect(() => retentionFromEnv({ PETRI_RETENTION_INBOX_HOURS: "167" })).toThrow(
      /PETRI_RETENTION_INBOX_HOURS: must be at least 168 hours \(an inbox row must outlive any redelivery/,
    );
    expect(retentionFromEnv({ PETRI_RETENTION_INBOX_HOURS: "168" }).inboxMs).toBe(MIN_INBOX_RETENTION_MS);
  });

  it("refuses idempotency records kept shorter than the 24-hour replay window, and bad numbers", () => {
    expect(() => retentionFromEnv({ PETRI_RETENTION_IDEMPOTENCY_HOURS: "12" })).toThrow(
      /PETRI_RETENTION_IDEMPOTENCY_HOURS: must be at least 24 hours/,
    );
    expect(() => retentionFromEnv({ PETRI_RETENTION_SENT_OUTBOX_HOURS: "soon" })).toThrow(
      /PETRI_RETENTION_SENT_OUTBOX_HOURS/,
    );
    expect(() => retentionFromEnv({ PETRI_RETENTION_BATCH_SIZE: "0" })).toThrow(/PETRI_RETENTION_BATCH_SIZE/);
  });
});
