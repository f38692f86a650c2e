// Barrel for petri.cloudlabs.v1, written by proto/write-barrels.mjs after `npm run generate`.
export * from "./gen/petri/cloudlabs/v1/cloudlabs_pb.js";
export * from "./gen/petri/cloudlabs/v1/cloudlabs_service_pb.js";
export * from "./gen/petri/cloudlabs/v1/events_pb.js";
export * from "./gen/petri/cloudlabs/v1/interpretation_pb.js";
