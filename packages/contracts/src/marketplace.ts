// Barrel for petri.marketplace.v1 (generated code lives in ./gen; regenerate with npm run generate).
export * from "./gen/petri/marketplace/v1/events_pb.js";
export * from "./gen/petri/marketplace/v1/marketplace_service_pb.js";
