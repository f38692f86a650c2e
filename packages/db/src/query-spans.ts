/**
 * A span per SQL statement, on both engines (pg and the embedded PGlite): Kysely reports each
 * statement with its duration once it finished (its `log` option), and the span is written
 * afterwards with the statement's start and end times, as a child of the span the statement
 * ran in. Only under a recorded span: a statement outside a sampled trace (a poll, a
 * migration), or with tracing off, costs one context lookup and makes nothing.
 * OpenTelemetry's pg instrumentation would miss PGlite and bundled builds (it patches `pg` as
 * Node loads it), hence this. The text is Kysely's parameterised SQL: bound values never
 * appear in a span.
 */
import { SpanKind, activeSpanRecording, failSpan, tracer } from "@petri/service-kit";
import type { LogEvent } from "kysely";

/** The statement's first keyword, as db.operation.name: "SELECT", "INSERT", "WITH"... */
function operationOf(sqlText: string): string {
  const match = /^\s*([A-Za-z]+)/.exec(sqlText);
  return match ? match[1]!.toUpperCase() : "SQL";
}

export function recordQuerySpan(event: LogEvent): void {
  if (!activeSpanRecording()) return;
  const endedAt = performance.timeOrigin + performance.now();
  const operation = operationOf(event.query.sql);
  const span = tracer().startSpan(operation, {
    kind: SpanKind.CLIENT,
    startTime: endedAt - event.queryDurationMillis,
    attributes: {
      "db.system.name": "postgresql",
      "db.operation.name": operation,
      "db.query.text": event.query.sql,
    },
  });
  if (event.level === "error") {
    const error = event.error;
    failSpan(span, error);
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code === "string") span.setAttribute("db.response.status_code", code);
  }
  span.end(endedAt);
}
