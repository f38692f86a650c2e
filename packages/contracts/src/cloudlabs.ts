// Barrel for petri.cloudlabs.v1 (generated code lives in ./gen; regenerate with npm run generate).
export * from "./gen/petri/cloudlabs/v1/cloudlabs_service_pb.js";
export * from "./gen/petri/cloudlabs/v1/events_pb.js";
