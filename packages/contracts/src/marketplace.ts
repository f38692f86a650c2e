// Barrel for petri.marketplace.v1, written by proto/write-barrels.mjs after `npm run generate`.
export * from "./gen/petri/marketplace/v1/events_pb.js";
export * from "./gen/petri/marketplace/v1/marketplace_service_pb.js";
export * from "./gen/petri/marketplace/v1/operator_pb.js";
export * from "./gen/petri/marketplace/v1/operator_profile_pb.js";
export * from "./gen/petri/marketplace/v1/vocabulary_pb.js";
