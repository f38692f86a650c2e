/**
 * Webhooks through the gateway (issue 6): the account's signing secret, signed deliveries of
 * every event of the loop to an HTTPS receiver on 127.0.0.1 (signatures checked by the
 * receiver's own code), thin payloads, the delivery log, a replay with the same webhook-id,
 * POST /webhooks/test and its SSRF refusal. Retries, pause and the e-mail run under an injected
 * clock in the notifications integration tests; here the clock is real.
 */
import { expect } from "vitest";
import { type ExperimentsTarget, micRequest, newRequester, staffClient } from "./experiments.scenarios.js";
import { eventually, newVerifiedOperator, runToPendingApproval } from "./marketplace.scenarios.js";
import {
  type ReceivedWebhook,
  type WebhookReceiver,
  serviceSignatureValid,
  standardSignatureValid,
} from "./support/webhook-receiver.js";

const ALL_EVENTS = ["claimed", "started", "completed", "issue", "approved", "disputed"];

export async function webhookDeliveriesScenario(target: ExperimentsTarget, receiver: WebhookReceiver) {
  const staff = await staffClient(target);
  const requester = await newRequester(target, "hooked");
  const { client: operator } = await newVerifiedOperator(target, staff, "hooked-lab");

  const secret = await requester.call("POST", "/webhooks/secret");
  expect(secret.status, secret.text).toBe(201);
  const signingSecret = secret.body.secret as string;
  expect(signingSecret).toMatch(/^whsec_/);
  const again = await requester.call("POST", "/webhooks/secret");
  expect(again.status, again.text).toBe(409);
  const settings = await requester.call("GET", "/webhooks/settings");
  expect(settings.status, settings.text).toBe(200);
  expect(settings.text).not.toContain(signingSecret);

  const created = await requester.call("POST", "/experiments", {
    ...micRequest("MIC with webhooks"),
    communication_preferences: {
      webhook_url: `${receiver.url}/hooks/petri`,
      notification_events: ALL_EVENTS,
      preferred_contact: "webhook",
    },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.experiment_id as string;

  await runToPendingApproval(requester, operator, id);
  const approved = await requester.call("POST", `/experiments/${id}/approve`, { rating: 5 });
  expect(approved.status, approved.text).toBe(200);

  const hooks = await eventually("five deliveries", async () => {
    const got = receiver.forExperiment(id);
    return new Set(got.map((h) => h.json.event)).size >= 5 ? got : undefined;
  });
  const byEvent = new Map<string, ReceivedWebhook>(hooks.map((h) => [h.json.event, h]));
  expect([...byEvent.keys()].sort()).toEqual(["approved", "claimed", "completed", "issue", "started"]);
  for (const hook of hooks) {
    expect(hook.path).toBe("/hooks/petri");
    expect(serviceSignatureValid(hook, signingSecret), hook.json.event).toBe(true);
    expect(standardSignatureValid(hook, signingSecret), hook.json.event).toBe(true);
    expect(hook.json).toMatchObject({
      experiment_id: id,
      timestamp: expect.any(String),
      data: expect.any(Object),
    });
    // Thin payloads: never file contents or the request.
    expect(hook.body.length).toBeLessThan(4096);
    expect(hook.body.toString()).not.toContain("content_base64");
  }
  expect(byEvent.get("completed")!.json.data).toMatchObject({
    status: "pending_approval",
    results_available: true,
  });
  const tampered = {
    ...byEvent.get("approved")!,
    body: Buffer.from(byEvent.get("approved")!.body.toString() + " "),
  };
  expect(serviceSignatureValid(tampered, signingSecret)).toBe(false);
  expect(standardSignatureValid(tampered, signingSecret)).toBe(false);

  // The delivery log, for the experiment and for the account; another account sees nothing.
  const log = await requester.call("GET", `/experiments/${id}/webhook-deliveries`);
  expect(log.status, log.text).toBe(200);
  const deliveries = log.body.deliveries as { delivery_id: string; webhook_id: string; status: string }[];
  expect(deliveries.length).toBeGreaterThanOrEqual(5);
  const claimedHook = byEvent.get("claimed")!;
  const claimedDelivery = deliveries.find((d) => d.webhook_id === claimedHook.headers["webhook-id"]);
  expect(claimedDelivery, log.text).toBeDefined();
  const one = await requester.call("GET", `/webhooks/deliveries/${claimedDelivery!.delivery_id}`);
  expect(one.status, one.text).toBe(200);
  expect(JSON.stringify(one.body)).toContain("200");
  const accountLog = await requester.call("GET", "/webhooks/deliveries?limit=100");
  expect(accountLog.status, accountLog.text).toBe(200);
  const stranger = await newRequester(target, "stranger");
  // Someone else's experiment is 404, like the experiment itself.
  const theirs = await stranger.call("GET", `/experiments/${id}/webhook-deliveries`);
  expect(theirs.status, theirs.text).toBe(404);
  const notTheirs = await stranger.call("GET", `/webhooks/deliveries/${claimedDelivery!.delivery_id}`);
  expect(notTheirs.status).toBe(404);

  // Replay: the same webhook-id arrives again, still correctly signed.
  const replay = await requester.call("POST", `/webhooks/deliveries/${claimedDelivery!.delivery_id}/replay`);
  expect([200, 202], replay.text).toContain(replay.status);
  await eventually("the replay", async () => {
    const copies = receiver.received.filter(
      (h) => h.headers["webhook-id"] === claimedHook.headers["webhook-id"],
    );
    return copies.length >= 2 ? copies : undefined;
  });

  // POST /webhooks/test: signed like a real delivery; SSRF rules refuse private addresses.
  const before = receiver.received.length;
  const test = await requester.call("POST", "/webhooks/test", {
    url: `${receiver.url}/hooks/test`,
    event_type: "completed",
  });
  expect(test.status, test.text).toBe(200);
  expect(test.body).toMatchObject({ success: true, response_code: 200 });
  expect(typeof test.body.response_time_ms).toBe("number");
  const sample = receiver.received.slice(before).find((h) => h.path === "/hooks/test");
  expect(sample).toBeDefined();
  expect(serviceSignatureValid(sample!, signingSecret)).toBe(true);
  for (const url of ["https://10.0.0.1/hook", "https://169.254.169.254/latest", "http://example.org/hook"]) {
    const refused = await requester.call("POST", "/webhooks/test", { url, event_type: "claimed" });
    expect(refused.status, `${url}: ${refused.text}`).toBe(422);
  }
}
