/**
 * Registering a webhook URL (issue 6, item 4): the URL's host is resolved (by the harness's
 * fake DNS, never the real one) and every address checked with the shared SSRF policy when a
 * request is created, a draft submitted, or a PATCH changes the URL: a refused URL is 422
 * validation_failed naming communication_preferences.webhook_url (invalid_webhook_url) and
 * stores nothing; an unresolvable one is accepted with a warning; the test allowlist lets
 * 127.0.0.1 through. Same scenarios on PostgreSQL and PGlite.
 */
import { Code } from "@connectrpc/connect";
import { ExperimentStatus } from "@petri/contracts/experiments";
import { AddressAllowlist } from "@petri/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ENGINES,
  type Experiments,
  bodies,
  experimentsOn,
  failure,
  json,
  requester,
  startExperiments,
} from "./support/harness.js";

const FIELD = "communication_preferences.webhook_url";

/** An open MIC request whose events go to `url`. */
function withWebhook(url: string): Record<string, unknown> {
  return {
    ...bodies.open(),
    communication_preferences: { webhook_url: url, notification_events: ["claimed"] },
  };
}

const refusedUrl = expect.objectContaining({ field: FIELD, code: "invalid_webhook_url" });
const unresolvedWarning = expect.objectContaining({ path: FIELD, code: "webhook_url_unresolved" });

describe.each(ENGINES)("webhook URL registration on %s", (engine) => {
  const exp = experimentsOn(engine);
  /** A second replica on the same database, with the test allowlist for 127.0.0.1. */
  let loopbackAllowed: Experiments;

  beforeAll(async () => {
    loopbackAllowed = await startExperiments(exp.backend.database, {
      webhookAllowlist: AddressAllowlist.of(["127.0.0.1/32"]),
    });
  });
  afterAll(async () => {
    await loopbackAllowed?.stop();
  });

  async function storedCount(accountId: string): Promise<number> {
    const rows = await exp.db
      .selectFrom("experiments")
      .select("id")
      .where("requester_account_id", "=", accountId)
      .execute();
    return rows.length;
  }

  it.each([
    ["a private address", "https://private.hooks.example/petri"],
    ["127.0.0.1 (no allowlist)", "https://loopback.hooks.example/petri"],
    ["the cloud metadata address", "https://metadata.hooks.example/petri"],
    ["an IPv4-mapped loopback", "https://mapped.hooks.example/petri"],
    ["one public and one private address", "https://mixed.hooks.example/petri"],
    ["a private literal", "https://10.0.0.5/petri"],
  ])("refuses a URL whose host resolves to %s with 422 on the field, storing nothing", async (_why, url) => {
    const me = requester();
    const refused = await failure(exp.as(me).createExperiment({ requestJson: json(withWebhook(url)) }));
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "validation_failed" });
    expect(refused.violations).toEqual([refusedUrl]);
    // The message says which rule, never which address.
    expect(refused.violations[0]!.message).not.toMatch(/10\.0\.0\.5|127\.0\.0\.1|169\.254|::ffff/);
    expect(await storedCount(me.accountId)).toBe(0);
  });

  it("reports a refused URL together with the request's other errors", async () => {
    const body = withWebhook("https://private.hooks.example/petri");
    delete body.title;
    const refused = await failure(exp.as(requester()).createExperiment({ requestJson: json(body) }));
    expect(refused.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "title", code: "missing_required" }),
        refusedUrl,
      ]),
    );
  });

  it("accepts a URL whose every address is public (201), with no warning about it", async () => {
    const me = requester();
    for (const host of ["hooks.example.org", "dual.hooks.example"]) {
      const { experiment, warnings } = await exp
        .as(me)
        .createExperiment({ requestJson: json(withWebhook(`https://${host}/petri`)) });
      expect(experiment!.status).toBe(ExperimentStatus.OPEN);
      expect(warnings.filter((w) => w.path === FIELD)).toEqual([]);
      expect(JSON.parse(experiment!.requestJson).communication_preferences.webhook_url).toBe(
        `https://${host}/petri`,
      );
    }
    expect(exp.resolver.lookups).toEqual(expect.arrayContaining(["hooks.example.org", "dual.hooks.example"]));
  });

  it("accepts a URL whose host does not resolve, with the webhook_url_unresolved warning", async () => {
    const { experiment, warnings } = await exp
      .as(requester())
      .createExperiment({ requestJson: json(withWebhook("https://not-yet.hooks.example/petri")) });
    expect(experiment!.status).toBe(ExperimentStatus.OPEN);
    expect(warnings).toContainEqual(unresolvedWarning);
  });

  it("lets 127.0.0.1 through only with the test allowlist", async () => {
    for (const url of ["https://loopback.hooks.example/petri", "https://127.0.0.1:9443/petri"]) {
      const { experiment } = await loopbackAllowed
        .as(requester())
        .createExperiment({ requestJson: json(withWebhook(url)) });
      expect(experiment!.status, url).toBe(ExperimentStatus.OPEN);
      const refused = await failure(
        exp.as(requester()).createExperiment({ requestJson: json(withWebhook(url)) }),
      );
      expect(refused.violations, url).toEqual([refusedUrl]);
    }
  });

  it("PATCH to a private URL is 422 and leaves the stored request unchanged; a public one is saved", async () => {
    const me = requester();
    const { experiment } = await exp
      .as(me)
      .createExperiment({ requestJson: json(withWebhook("https://hooks.example.org/petri")) });
    const id = experiment!.id;

    const refused = await failure(
      exp.as(me).updateExperiment({
        experimentId: id,
        patchJson: json({
          communication_preferences: { webhook_url: "https://private.hooks.example/petri" },
        }),
      }),
    );
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "validation_failed" });
    expect(refused.violations).toEqual([refusedUrl]);
    const { experiment: unchanged } = await exp.as(me).getExperiment({ experimentId: id });
    expect(unchanged!.version).toBe(1n);
    expect(unchanged!.requestJson).toBe(experiment!.requestJson);

    const { experiment: patched } = await exp.as(me).updateExperiment({
      experimentId: id,
      patchJson: json({ communication_preferences: { webhook_url: "https://dual.hooks.example/v2" } }),
    });
    expect(patched!.version).toBe(2n);
    expect(JSON.parse(patched!.requestJson).communication_preferences.webhook_url).toBe(
      "https://dual.hooks.example/v2",
    );

    // A patch that leaves the URL as it is looks nothing up.
    const before = exp.resolver.lookups.length;
    await exp
      .as(me)
      .updateExperiment({ experimentId: id, patchJson: json({ turnaround_priority: "urgent" }) });
    expect(exp.resolver.lookups.length).toBe(before);
  });

  it("checks a draft's URL when it is submitted, not when it is saved", async () => {
    const me = requester();
    const before = exp.resolver.lookups.length;
    const { experiment: draft } = await exp.as(me).createExperiment({
      requestJson: json(withWebhook("https://private.hooks.example/petri")),
      saveAsDraft: true,
    });
    expect(draft!.status).toBe(ExperimentStatus.DRAFT);
    // Changing a draft's URL registers nothing yet either.
    await exp.as(me).updateExperiment({
      experimentId: draft!.id,
      patchJson: json({ communication_preferences: { webhook_url: "https://metadata.hooks.example/petri" } }),
    });
    expect(exp.resolver.lookups.length).toBe(before);

    const refused = await failure(exp.as(me).submitDraft({ experimentId: draft!.id }));
    expect(refused).toMatchObject({ code: Code.InvalidArgument, reason: "validation_failed" });
    expect(refused.violations).toEqual([refusedUrl]);
    const { experiment: still } = await exp.as(me).getExperiment({ experimentId: draft!.id });
    expect(still!.status).toBe(ExperimentStatus.DRAFT);

    await exp.as(me).updateExperiment({
      experimentId: draft!.id,
      patchJson: json({ communication_preferences: { webhook_url: "https://not-yet.hooks.example/petri" } }),
    });
    const submitted = await exp.as(me).submitDraft({ experimentId: draft!.id });
    expect(submitted.experiment!.status).toBe(ExperimentStatus.OPEN);
    expect(submitted.warnings).toContainEqual(unresolvedWarning);
  });

  it("an idempotent replay answers the stored response without resolving the URL again", async () => {
    const me = requester();
    const request = {
      requestJson: json(withWebhook("https://hooks.example.org/replayed")),
      idempotencyKey: "hook-1",
    };
    const first = await exp.as(me).createExperiment(request);
    const lookups = exp.resolver.lookups.length;
    const replay = await exp.as(me).createExperiment(request);
    expect(replay.replayed).toBe(true);
    expect(replay.experiment!.id).toBe(first.experiment!.id);
    expect(exp.resolver.lookups.length).toBe(lookups);

    // A refused URL stores nothing under the key: the same key with a public URL runs anew.
    const refusedKey = { idempotencyKey: "hook-2" };
    const refused = await failure(
      exp.as(me).createExperiment({
        requestJson: json(withWebhook("https://private.hooks.example/petri")),
        ...refusedKey,
      }),
    );
    expect(refused.violations).toEqual([refusedUrl]);
    const retried = await exp.as(me).createExperiment({
      requestJson: json(withWebhook("https://hooks.example.org/petri")),
      ...refusedKey,
    });
    expect(retried.replayed).toBe(false);
  });
});
