import { trace } from "@opentelemetry/api";
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from "@opentelemetry/sdk-trace";

/**
 * Records every span in memory, as a process exporting traces would make them (startTracing
 * with an endpoint): until `stop()`, after which the API's no-op tracer is back.
 */
export function recordSpans(): { spans: () => ReadableSpan[]; stop: () => Promise<void> } {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  trace.disable();
  trace.setGlobalTracerProvider(provider);
  return {
    spans: () => exporter.getFinishedSpans(),
    async stop() {
      await provider.shutdown();
      trace.disable();
    },
  };
}
