import { describe, expect, it } from "vitest";
import { pauseNotice } from "./pause-notice.js";

describe("pauseNotice", () => {
  const facts = {
    deliveryId: "msg_1",
    event: "claimed",
    experimentId: "exp_1",
    url: "https://hooks.example.com/petri",
    pausedAt: new Date("2026-03-02T12:36:00.000Z"),
  };

  it("names the delivery, the receiver, the last failure and how to resume", () => {
    const notice = pauseNotice({ ...facts, lastError: "http_status", lastResponseCode: 503 });
    expect(notice.subject).toBe("Petri: webhook deliveries paused");
    for (const part of [
      "msg_1",
      "exp_1",
      "https://hooks.example.com/petri",
      "HTTP 503",
      "5 attempts",
      "POST /webhooks/resume",
    ])
      expect(notice.text).toContain(part);
  });

  it("describes a failure without a response without naming its cause", () => {
    const notice = pauseNotice({ ...facts, lastError: "connection_failed", lastResponseCode: null });
    expect(notice.text).toContain("no answer arrived within 5 seconds");
  });
});
