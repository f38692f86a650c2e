export * from "./transitions.js";
export * from "./cancellation.js";
export * from "./protocol-design.js";
export * from "./results-access.js";
