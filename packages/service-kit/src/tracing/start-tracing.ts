/**
 * Exporting traces: when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is
 * set (and OTEL_SDK_DISABLED is not "true", OTEL_TRACES_EXPORTER not "none"), this process's
 * spans go over OTLP/HTTP (JSON) in batches, and outgoing undici requests (webhook POSTs,
 * cloud-lab and model APIs) get client spans. Otherwise no SDK is installed: spans are the
 * API's no-op ones, carrying the ids the gateway gave the request (trace-context.ts).
 *
 * The standard variables are honoured as the OpenTelemetry specification names them:
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (resource), OTEL_TRACES_SAMPLER and
 * OTEL_TRACES_SAMPLER_ARG (sampling, default parentbased_always_on), OTEL_BSP_SCHEDULE_DELAY
 * (batch delay, default 5000 ms), OTEL_EXPORTER_OTLP_HEADERS and _TIMEOUT (read by the exporter).
 */
import { hostname } from "node:os";
import { trace } from "@opentelemetry/api";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { ConfigError } from "../config.js";
import { installTraceContext } from "./trace-context.js";

export interface TracingOptions {
  /** service.name unless OTEL_SERVICE_NAME says otherwise: "petri-gateway", "petri-experiments", "petri" (standalone). */
  serviceName: string;
  env?: Record<string, string | undefined>;
}

export interface Tracing {
  /** True when spans are exported. */
  readonly exporting: boolean;
  /** Where they go (the OTLP traces URL), when exporting. */
  readonly url: string | undefined;
  /** Exports what is buffered and stops; spans made afterwards only carry their parents' ids. */
  shutdown(): Promise<void>;
}

/** The OTLP/HTTP traces URL the environment names, or undefined when tracing is off. */
export function otlpTracesUrl(env: Record<string, string | undefined>): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

/** The sampler OTEL_TRACES_SAMPLER names; an unknown name is a configuration error. */
export function samplerFromEnv(env: Record<string, string | undefined>): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || "parentbased_always_on";
  const argument = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = () => {
    const value = argument === undefined || argument === "" ? 1 : Number(argument);
    if (!Number.isFinite(value) || value < 0 || value > 1)
      throw new ConfigError([
        {
          variable: "OTEL_TRACES_SAMPLER_ARG",
          problem: `must be a ratio between 0 and 1, got ${JSON.stringify(argument)}`,
        },
      ]);
    return new TraceIdRatioBasedSampler(value);
  };
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio();
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio() });
    default:
      throw new ConfigError([
        {
          variable: "OTEL_TRACES_SAMPLER",
          problem:
            `${JSON.stringify(name)} is not one of always_on, always_off, traceidratio, ` +
            "parentbased_always_on, parentbased_always_off, parentbased_traceidratio",
        },
      ]);
  }
}

function scheduleDelayMs(env: Record<string, string | undefined>): number {
  const raw = env.OTEL_BSP_SCHEDULE_DELAY?.trim();
  if (!raw) return 5_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError([
      {
        variable: "OTEL_BSP_SCHEDULE_DELAY",
        problem: `must be a positive number of milliseconds, got ${JSON.stringify(raw)}`,
      },
    ]);
  return value;
}

/**
 * Starts exporting when the environment asks for it (see the module comment); call once per
 * process. A malformed setting throws ConfigError (exitOnConfigError names it and exits). The
 * exporter and the undici instrumentation (about 0.1 s of start-up) are loaded only to export.
 */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const env = options.env ?? process.env;
  installTraceContext();
  const url = otlpTracesUrl(env);
  if (!url) return { exporting: false, url: undefined, shutdown: async () => undefined };
  const sampler = samplerFromEnv(env);
  const [{ OTLPTraceExporter }, { registerInstrumentations }, { UndiciInstrumentation }] = await Promise.all([
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/instrumentation"),
    import("@opentelemetry/instrumentation-undici"),
  ]);
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: options.serviceName,
        "service.namespace": "petri",
        "service.instance.id": `${hostname()}-${process.pid}`,
      }),
    )
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults above.
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url }),
        scheduledDelayMillis: scheduleDelayMs(env),
      }),
    ],
  });
  trace.disable();
  trace.setGlobalTracerProvider(provider);
  // Spans only for requests made inside a trace: a poll's request of its own is no trace.
  const undici = new UndiciInstrumentation({ requireParentforSpans: true });
  const unregister = registerInstrumentations({ instrumentations: [undici], tracerProvider: provider });
  let stopped: Promise<void> | undefined;
  return {
    exporting: true,
    url,
    shutdown() {
      stopped ??= (async () => {
        unregister();
        try {
          await provider.shutdown();
        } finally {
          // Back to the API's no-op tracer, as when nothing was ever exported.
          trace.disable();
        }
      })();
      return stopped;
    },
  };
}
