import { AddressAllowlist, ConflictError, createLogger } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import {
  CheckedWebhookUrl,
  type WebhookRegistration,
  makeCheckWebhookRegistration,
  webhookUrlOf,
  withCheckedWebhookUrl,
} from "./webhook-registration.js";

const logger = createLogger({ service: "experiments-test", level: "silent" });

describe("webhookUrlOf", () => {
  it("reads communication_preferences.webhook_url when it is a string", () => {
    expect(webhookUrlOf({ communication_preferences: { webhook_url: "https://h.example/x" } })).toBe(
      "https://h.example/x",
    );
    for (const request of [
      null,
      "x",
      {},
      { communication_preferences: null },
      { communication_preferences: { webhook_url: 5 } },
    ])
      expect(webhookUrlOf(request)).toBeUndefined();
  });
});

describe("makeCheckWebhookRegistration", () => {
  const check = makeCheckWebhookRegistration({
    logger,
    allowlist: AddressAllowlist.empty,
    resolver: async (hostname) => {
      if (hostname === "public.example") return [{ address: "93.184.215.14", family: 4 }];
      if (hostname === "private.example") return [{ address: "10.0.0.5", family: 4 }];
      throw new Error("ENOTFOUND");
    },
  });

  it("maps the policy's verdict to a field error, a warning or nothing", async () => {
    expect(await check(undefined)).toEqual({ kind: "none" });
    expect(await check("https://public.example/h")).toEqual({ kind: "ok" });
    expect(await check("https://private.example/h")).toEqual({
      kind: "refused",
      error: {
        field: "communication_preferences.webhook_url",
        code: "invalid_webhook_url",
        message: expect.stringContaining("not publicly routable"),
      },
    });
    expect(await check("https://nowhere.example/h")).toEqual({
      kind: "unresolved",
      warning: {
        path: "communication_preferences.webhook_url",
        code: "webhook_url_unresolved",
        message: expect.any(String),
      },
    });
  });
});

describe("withCheckedWebhookUrl", () => {
  const ok: WebhookRegistration = { kind: "ok" };

  it("checks before running, and again (outside the run) for a URL the run did not expect", async () => {
    const checked: Array<string | undefined> = [];
    const check = async (url: string | undefined) => {
      checked.push(url);
      return url === undefined ? ({ kind: "none" } as const) : ok;
    };
    let runs = 0;
    const result = await withCheckedWebhookUrl(check, "https://a.example/", async (verdicts) => {
      runs += 1;
      // The row as locked names another URL than the one read before the transaction.
      return verdicts.verdictFor("https://b.example/");
    });
    expect(result).toEqual(ok);
    expect(runs).toBe(2);
    expect(checked).toEqual(["https://a.example/", "https://b.example/"]);
  });

  it("skips the check when told so, and checks only if the run needs a verdict after all", async () => {
    const checked: Array<string | undefined> = [];
    const check = async (url: string | undefined) => (checked.push(url), ok);
    expect(await withCheckedWebhookUrl(check, CheckedWebhookUrl.unchecked, async () => "replayed")).toBe(
      "replayed",
    );
    expect(checked).toEqual([]);
    expect(
      await withCheckedWebhookUrl(check, CheckedWebhookUrl.unchecked, async (verdicts) =>
        verdicts.verdictFor("https://a.example/"),
      ),
    ).toEqual(ok);
    expect(checked).toEqual(["https://a.example/"]);
  });

  it("gives up with a retryable conflict when the URL keeps changing", async () => {
    let n = 0;
    const error = await withCheckedWebhookUrl(
      async () => ok,
      "https://a.example/",
      async (verdicts) => verdicts.verdictFor(`https://changed-${(n += 1)}.example/`),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe("concurrent_update");
  });
});
