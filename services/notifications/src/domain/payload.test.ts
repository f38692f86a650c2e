import { describe, expect, it } from "vitest";
import {
  MAX_PAYLOAD_BYTES,
  MAX_TEXT_CHARS,
  cutText,
  experimentLinks,
  serializeWebhookBody,
} from "./payload.js";

describe("serializeWebhookBody", () => {
  it("W9: the largest realistic event stays far under 20 KB and carries links, not content", () => {
    const text = serializeWebhookBody({
      event: "issue",
      experiment_id: "exp_01jabcdefghjkmnpqrstvwxyz0",
      timestamp: "2026-03-02T10:00:00.000Z",
      data: {
        status: "in_progress",
        version: 42,
        issue: {
          id: "iss_x",
          severity: "critical",
          description: cutText("é".repeat(50_000)),
          reported_at: null,
        },
        links: experimentLinks("exp_01jabcdefghjkmnpqrstvwxyz0", "issue"),
      },
    });
    expect(Buffer.byteLength(text)).toBeLessThan(4 * 1024);
    expect(JSON.parse(text).data.issue.description).toHaveLength(MAX_TEXT_CHARS);
  });

  it("drops event details rather than sending more than the cap", () => {
    const text = serializeWebhookBody({
      event: "completed",
      experiment_id: "exp_1",
      timestamp: "2026-03-02T10:00:00.000Z",
      data: {
        status: "pending_approval",
        version: 3,
        blob: "A".repeat(MAX_PAYLOAD_BYTES),
        links: { experiment: "/experiments/exp_1" },
      },
    });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(JSON.parse(text)).toEqual({
      event: "completed",
      experiment_id: "exp_1",
      timestamp: "2026-03-02T10:00:00.000Z",
      data: {
        status: "pending_approval",
        version: 3,
        links: { experiment: "/experiments/exp_1" },
        truncated: true,
      },
    });
  });
});

describe("experimentLinks", () => {
  it("points at the results once there are results", () => {
    expect(experimentLinks("exp_1", "claimed")).toEqual({ experiment: "/experiments/exp_1" });
    expect(experimentLinks("exp_1", "completed")).toEqual({
      experiment: "/experiments/exp_1",
      results: "/experiments/exp_1/results",
    });
  });
});
