// Barrel for petri.engine.v1, written by proto/write-barrels.mjs after `npm run generate`.
export * from "./gen/petri/engine/v1/engine_result_pb.js";
export * from "./gen/petri/engine/v1/engine_run_pb.js";
export * from "./gen/petri/engine/v1/engine_service_pb.js";
export * from "./gen/petri/engine/v1/events_pb.js";
