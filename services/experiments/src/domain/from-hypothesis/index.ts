export * from "./hypothesis-view.js";
export * from "./to-experiment.js";
