/**
 * One trace from a claim to its webhook (issue 16): the gateway's request span, the Connect
 * call, the experiments service's span and its SQL, the relay's send of the outbox row, the
 * notifications consumer's process span, the webhook attempt and its POST, all in one trace
 * and each under the one before, as exported over OTLP/HTTP to a receiver on 127.0.0.1. The
 * receiver of the webhook sees the trace too: the POST carries its traceparent.
 */
import { expect } from "vitest";
import { type ExperimentsTarget, micRequest, newRequester, staffClient } from "./experiments.scenarios.js";
import { claimWhenKnown, eventually, newVerifiedOperator } from "./marketplace.scenarios.js";
import { type OtlpReceiver, type ReceivedSpan, SPAN_KIND } from "./support/otlp-receiver.js";
import type { WebhookReceiver } from "./support/webhook-receiver.js";

/** The service.name each process exports under: one per service in a cluster, "petri" standalone. */
export type ServiceNames = (service: "gateway" | "experiments" | "notifications") => string;

export async function claimToWebhookTraceScenario(
  target: ExperimentsTarget,
  webhooks: WebhookReceiver,
  otlp: OtlpReceiver,
  serviceName: ServiceNames,
) {
  const staff = await staffClient(target);
  const requester = await newRequester(target, "traced");
  const { client: operator } = await newVerifiedOperator(target, staff, "traced-lab");
  const created = await requester.call("POST", "/experiments", {
    ...micRequest("MIC with a traced claim"),
    communication_preferences: {
      webhook_url: `${webhooks.url}/hooks/traced`,
      notification_events: ["claimed"],
      preferred_contact: "webhook",
    },
  });
  expect(created.status, created.text).toBe(201);
  const experimentId = created.body.experiment_id as string;
  const claim = await claimWhenKnown(operator, experimentId);
  expect(claim.status, claim.text).toBe(200);

  const hook = await eventually("the claimed webhook", async () =>
    webhooks.forExperiment(experimentId).find((h) => h.json.event === "claimed"),
  );
  const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(hook.headers.traceparent ?? "");
  expect(sent, `the webhook POST's traceparent: ${hook.headers.traceparent}`).not.toBeNull();
  const [, traceId, postSpanId] = sent!;

  const byId = (spans: ReceivedSpan[], id: string | undefined) => spans.find((s) => s.spanId === id);
  const spans = await eventually(
    "the claim's spans at the OTLP receiver",
    async () => {
      // Spans arrive as each process's batches go out: wait for the chain from the POST to
      // a root, every link present.
      const got = otlp.trace(traceId!);
      for (let span = byId(got, postSpanId); span; span = byId(got, span.parentSpanId))
        if (span.parentSpanId === undefined) return got;
      return undefined;
    },
    { intervalMs: 250 },
  );
  const describe = () => spans.map((s) => `${s.service} ${s.name} ${s.spanId}<-${s.parentSpanId}`).join("\n");
  const parentOf = (span: ReceivedSpan) => {
    const parent = byId(spans, span.parentSpanId);
    expect(parent, `parent of ${span.name}\n${describe()}`).toBeDefined();
    return parent!;
  };

  // From the POST up: each span's parent is the step before it.
  const post = byId(spans, postSpanId)!;
  expect(post).toMatchObject({ kind: SPAN_KIND.client, service: serviceName("notifications") });
  expect(post.attributes["http.request.method"]).toBe("POST");
  expect(String(post.attributes["url.full"])).toContain("/hooks/traced");
  const attempt = parentOf(post);
  expect(attempt).toMatchObject({ name: "webhook attempt", service: serviceName("notifications") });
  expect(attempt.attributes["petri.webhook.event"]).toBe("claimed");
  const consumer = parentOf(attempt);
  expect(consumer).toMatchObject({ kind: SPAN_KIND.consumer, service: serviceName("notifications") });
  expect(String(consumer.attributes["messaging.consumer.group.name"])).toMatch(/^notifications-/);
  const send = parentOf(consumer);
  expect(send).toMatchObject({ kind: SPAN_KIND.producer, service: serviceName("experiments") });
  expect(send.name).toMatch(/^send petri\.experiments\./);
  const experiments = parentOf(send);
  expect(experiments).toMatchObject({ kind: SPAN_KIND.server, service: serviceName("experiments") });
  expect(experiments.attributes["rpc.method"]).toBe("ClaimExperiment");
  // The service's SQL, under its span: the outbox row among it.
  const sql = spans.filter((s) => s.parentSpanId === experiments.spanId && s.attributes["db.system.name"]);
  expect(sql.length, describe()).toBeGreaterThan(0);
  expect(sql.some((s) => /outbox/.test(String(s.attributes["db.query.text"])))).toBe(true);
  for (const statement of sql)
    expect(String(statement.attributes["db.query.text"])).not.toContain(experimentId);
  const call = parentOf(experiments);
  expect(call).toMatchObject({ kind: SPAN_KIND.client, service: serviceName("gateway") });
  expect(call.attributes["rpc.method"]).toBe("ClaimExperiment");
  const gateway = parentOf(call);
  expect(gateway).toMatchObject({
    kind: SPAN_KIND.server,
    service: serviceName("gateway"),
    name: "POST /operator/jobs/{experiment_id}/claim",
    parentSpanId: undefined,
  });
  expect(gateway.attributes["http.response.status_code"]).toBe(200);
  expect(otlp.rejected).toEqual([]);
}
