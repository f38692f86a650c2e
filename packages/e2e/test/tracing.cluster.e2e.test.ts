import { afterAll, beforeAll, describe, it } from "vitest";
import type { ExperimentsTarget } from "./experiments.scenarios.js";
import { STAFF, clusterInfraReady, startClusterHost } from "./support/hosts.js";
import { OtlpReceiver } from "./support/otlp-receiver.js";
import { WebhookReceiver } from "./support/webhook-receiver.js";
import { claimToWebhookTraceScenario } from "./tracing.scenarios.js";

const ready = await clusterInfraReady();

describe.skipIf(!ready)(
  "OpenTelemetry traces, cluster mode (a process per service, NATS)",
  { timeout: 300_000 },
  () => {
    let otlp: OtlpReceiver;
    let host: Awaited<ReturnType<typeof startClusterHost>>;
    let target: ExperimentsTarget;
    let webhooks: WebhookReceiver;

    beforeAll(async () => {
      otlp = await OtlpReceiver.start();
      // Every process exports, as an operator would configure it.
      host = await startClusterHost("tracing", {
        gateways: 1,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_BSP_SCHEDULE_DELAY: "100" },
      });
      target = { baseUrls: host.baseUrls, staff: STAFF };
      webhooks = await WebhookReceiver.start();
    });

    afterAll(async () => {
      await webhooks?.close();
      await host?.stop();
      await otlp?.close();
    });

    it("a claim's trace crosses the gateway, experiments, NATS and notifications to the webhook POST", () =>
      claimToWebhookTraceScenario(target, webhooks, otlp, (service) => `petri-${service}`));
  },
);
