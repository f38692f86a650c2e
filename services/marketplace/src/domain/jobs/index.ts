export * from "./projection.js";
export * from "./requirements.js";
export * from "./feed.js";
