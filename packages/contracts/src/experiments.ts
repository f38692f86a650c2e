// Barrel for petri.experiments.v1 (generated code lives in ./gen; regenerate with npm run generate).
export * from "./gen/petri/experiments/v1/events_pb.js";
export * from "./gen/petri/experiments/v1/experiments_service_pb.js";
