import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "@petri/contracts/vocabulary";
import { webhookPreferences } from "./webhook-events.js";

const request = (communication: unknown) =>
  JSON.stringify({ title: "x", communication_preferences: communication });

describe("webhookPreferences", () => {
  it("reads the URL and the listed events", () => {
    const preferences = webhookPreferences(
      request({
        webhook_url: " https://hooks.example.com/a ",
        notification_events: ["claimed", "completed"],
      }),
    );
    expect(preferences?.url).toBe("https://hooks.example.com/a");
    expect([...preferences!.events]).toEqual(["claimed", "completed"]);
  });

  it("wants every event when the URL is named without a list, none with an empty list", () => {
    expect([...webhookPreferences(request({ webhook_url: "https://h.example.com/" }))!.events]).toEqual([
      ...WEBHOOK_EVENTS,
    ]);
    expect(
      webhookPreferences(request({ webhook_url: "https://h.example.com/", notification_events: [] }))!.events
        .size,
    ).toBe(0);
  });

  it("ignores unknown event names and wants nothing without a URL", () => {
    expect([
      ...webhookPreferences(
        request({ webhook_url: "https://h.example.com/", notification_events: ["claimed", "paid", 3] }),
      )!.events,
    ]).toEqual(["claimed"]);
    expect(webhookPreferences(request({ notification_events: ["claimed"] }))).toBeUndefined();
    expect(webhookPreferences(request({ webhook_url: "" }))).toBeUndefined();
    expect(webhookPreferences(JSON.stringify({ title: "no preferences" }))).toBeUndefined();
    expect(webhookPreferences("not json")).toBeUndefined();
  });
});
