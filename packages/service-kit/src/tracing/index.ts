export * from "./start-tracing.js";
export * from "./trace-context.js";
