/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, as a collector would be: it takes the JSON export
 * requests of @opentelemetry/exporter-trace-otlp-http at POST /v1/traces and keeps every span
 * with its resource's service.name.
 */
import { type Server, createServer } from "node:http";

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
      }>;
    }>;
  }>;
}

function attributes(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    const v = value.stringValue ?? value.boolValue ?? value.doubleValue ?? value.intValue;
    if (v !== undefined) out[key] = typeof v === "string" && value.intValue !== undefined ? Number(v) : v;
  }
  return out;
}

export class OtlpReceiver {
  private constructor(
    private readonly server: Server,
    /** The value for OTEL_EXPORTER_OTLP_ENDPOINT. */
    readonly endpoint: string,
    readonly spans: ReceivedSpan[],
    /** Export requests that were not JSON OTLP (a wrong content type or body). */
    readonly rejected: string[],
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const spans: ReceivedSpan[] = [];
    const rejected: string[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const type = request.headers["content-type"] ?? "";
        if (
          request.method !== "POST" ||
          request.url !== "/v1/traces" ||
          !type.startsWith("application/json")
        ) {
          rejected.push(`${request.method} ${request.url} ${type}`);
          response.writeHead(415).end();
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString()) as OtlpExport;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributes(resourceSpans.resource?.attributes)["service.name"] ?? "");
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                name: span.name,
                kind: span.kind,
                attributes: attributes(span.attributes),
              });
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("OTLP receiver has no port");
    return new OtlpReceiver(server, `http://127.0.0.1:${address.port}`, spans, rejected);
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
