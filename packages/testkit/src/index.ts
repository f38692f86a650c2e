// Other testkit modules (fake clock, NATS launcher, webhook sink, fake LLM/literature
// servers) add their exports here.
export {
  type TestDatabase,
  createTestDatabase,
  postgresAvailable,
  requireInfra,
  testDatabaseAdminUrl,
} from "./postgres.js";
export { FakeClock } from "./clock.js";
export { natsServerAvailable, natsServerBinary, startNatsServer, type NatsServerHandle } from "./nats.js";
export { startNatsCluster, type NatsClusterHandle } from "./nats-cluster.js";
export { micRequest, operatorProfile, verificationRecord } from "./requests.js";
export {
  type LoopbackCertificate,
  type LoopbackCertificateOptions,
  loopbackCertificate,
  writeCaFile,
} from "./loopback-certificate.js";
export { freePort, freePortBase } from "./ports.js";
export { zodMessageMismatches } from "./schema-drift.js";
