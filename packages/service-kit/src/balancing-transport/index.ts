export * from "./balancing-transport.js";
export * from "./connect-node.js";
export * from "./connection-failure.js";
export * from "./endpoints.js";
