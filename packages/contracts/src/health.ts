// Barrel for the standard grpc.health.v1 protocol, written by proto/write-barrels.mjs.
export * from "./gen/grpc/health/v1/health_pb.js";
