export * from "./clock.js";
export * from "./errors.js";
export * from "./failpoints.js";
export * from "./hosted-service.js";
