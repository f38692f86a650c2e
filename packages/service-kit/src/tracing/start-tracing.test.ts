import { describe, expect, it } from "vitest";
import { ConfigError } from "../config.js";
import { otlpTracesUrl, samplerFromEnv, startTracing } from "./start-tracing.js";

describe("which traces are exported, and where", () => {
  it("follows the OTLP endpoint variables as the OpenTelemetry specification names them", () => {
    expect(otlpTracesUrl({})).toBeUndefined();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(
      "http://collector:4318/v1/traces",
    );
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toBe(
      "http://collector:4318/v1/traces",
    );
    // The signal's own variable is used as it is, and wins.
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.org/otlp",
      }),
    ).toBe("https://traces.example.org/otlp");
    expect(
      otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBeUndefined();
    expect(
      otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" }),
    ).toBeUndefined();
  });

  it("samples every trace a caller did not decline by default; other samplers by name", () => {
    expect(samplerFromEnv({}).toString()).toMatch(/ParentBased\{root=AlwaysOnSampler/);
    expect(
      samplerFromEnv({
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0.25",
      }).toString(),
    ).toMatch(/TraceIdRatioBased\{0\.25\}/);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "always_off" }).toString()).toBe("AlwaysOffSampler");
  });

  it("refuses a sampler or ratio it does not know, naming the variable", async () => {
    for (const env of [
      { OTEL_TRACES_SAMPLER: "sometimes" },
      { OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "2" },
      { OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "half" },
    ]) {
      const error = (() => {
        try {
          samplerFromEnv(env);
        } catch (e) {
          return e;
        }
      })();
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems[0]!.variable).toMatch(/^OTEL_TRACES_SAMPLER/);
    }
    await expect(
      startTracing({
        serviceName: "t",
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_BSP_SCHEDULE_DELAY: "soon" },
      }),
    ).rejects.toThrow(ConfigError);
  });

  it("exports nothing without an endpoint", async () => {
    const tracing = await startTracing({ serviceName: "t", env: {} });
    expect(tracing.exporting).toBe(false);
    await tracing.shutdown();
  });
});
