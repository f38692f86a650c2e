import { type Tracing, startTracing } from "@petri/service-kit";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { ExperimentsTarget } from "./experiments.scenarios.js";
import { STAFF, startStandaloneHost } from "./support/hosts.js";
import { OtlpReceiver } from "./support/otlp-receiver.js";
import { WebhookReceiver } from "./support/webhook-receiver.js";
import { claimToWebhookTraceScenario } from "./tracing.scenarios.js";

describe("OpenTelemetry traces, standalone mode (every service in one process)", { timeout: 180_000 }, () => {
  let otlp: OtlpReceiver;
  let tracing: Tracing;
  let host: Awaited<ReturnType<typeof startStandaloneHost>>;
  let target: ExperimentsTarget;
  let webhooks: WebhookReceiver;

  beforeAll(async () => {
    otlp = await OtlpReceiver.start();
    // As `npm start` does with OTEL_EXPORTER_OTLP_ENDPOINT set (standalone/src/main.ts).
    tracing = await startTracing({
      serviceName: "petri",
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_BSP_SCHEDULE_DELAY: "100" },
    });
    host = await startStandaloneHost("petri-e2e-tracing");
    target = { baseUrls: [host.petri.url], staff: STAFF };
    webhooks = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await webhooks?.close();
    await host?.stop();
    await tracing?.shutdown();
    await otlp?.close();
  });

  it("a claim's trace runs from the gateway to the webhook POST", () =>
    claimToWebhookTraceScenario(target, webhooks, otlp, () => "petri"));
});
