// Barrel for petri.notifications.v1, written by proto/write-barrels.mjs after `npm run generate`.
export * from "./gen/petri/notifications/v1/events_pb.js";
export * from "./gen/petri/notifications/v1/notifications_service_pb.js";
export * from "./gen/petri/notifications/v1/vocabulary_pb.js";
export * from "./gen/petri/notifications/v1/webhooks_pb.js";
