// Barrel for petri.hypotheses.v1 (generated code lives in ./gen; regenerate with npm run generate).
export * from "./gen/petri/hypotheses/v1/events_pb.js";
export * from "./gen/petri/hypotheses/v1/hypotheses_service_pb.js";
