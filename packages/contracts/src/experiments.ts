// Barrel for petri.experiments.v1, written by proto/write-barrels.mjs after `npm run generate`.
export * from "./gen/petri/experiments/v1/events_pb.js";
export * from "./gen/petri/experiments/v1/experiment_pb.js";
export * from "./gen/petri/experiments/v1/experiments_service_pb.js";
export * from "./gen/petri/experiments/v1/request_pb.js";
export * from "./gen/petri/experiments/v1/request_sections_pb.js";
export * from "./gen/petri/experiments/v1/request_vocabulary_pb.js";
export * from "./gen/petri/experiments/v1/results_pb.js";
export * from "./gen/petri/experiments/v1/templates_pb.js";
export * from "./gen/petri/experiments/v1/vocabulary_pb.js";
