// The testkit pieces these tests use, in one place.
import { natsServerAvailable } from "../../../testkit/src/nats.js";
import { postgresAvailable, requireInfra } from "../../../testkit/src/postgres.js";

export { FakeClock } from "../../../testkit/src/clock.js";
export { natsServerAvailable, startNatsServer, type NatsServerHandle } from "../../../testkit/src/nats.js";
export { createTestDatabase, type TestDatabase } from "../../../testkit/src/postgres.js";

/** PostgreSQL and nats-server both present (under CI=true a missing one throws instead). */
export async function clusterInfraReady(): Promise<boolean> {
  const pg = requireInfra("PostgreSQL", await postgresAvailable());
  const nats = requireInfra("nats-server", natsServerAvailable());
  return pg && nats;
}
