// Barrel for petri.notifications.v1 (generated code lives in ./gen; regenerate with npm run generate).
export * from "./gen/petri/notifications/v1/events_pb.js";
export * from "./gen/petri/notifications/v1/notifications_service_pb.js";
