// Barrel for petri.hypotheses.v1, written by proto/write-barrels.mjs after `npm run generate`.
export * from "./gen/petri/hypotheses/v1/events_pb.js";
export * from "./gen/petri/hypotheses/v1/hypotheses_service_pb.js";
export * from "./gen/petri/hypotheses/v1/hypothesis_pb.js";
