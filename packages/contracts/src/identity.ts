// Barrel for petri.identity.v1, written by proto/write-barrels.mjs after `npm run generate`.
export * from "./gen/petri/identity/v1/account_pb.js";
export * from "./gen/petri/identity/v1/credentials_pb.js";
export * from "./gen/petri/identity/v1/events_pb.js";
export * from "./gen/petri/identity/v1/identity_service_pb.js";
