// Barrel for petri.engine.v1 (generated code lives in ./gen; regenerate with npm run generate).
export * from "./gen/petri/engine/v1/engine_service_pb.js";
export * from "./gen/petri/engine/v1/events_pb.js";
