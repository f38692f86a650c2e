// The testkit pieces these tests use, in one place.
import { natsServerAvailable, postgresAvailable, requireInfra } from "@petri/testkit";

export {
  createTestDatabase,
  FakeClock,
  natsServerAvailable,
  startNatsServer,
  type NatsServerHandle,
  type TestDatabase,
} from "@petri/testkit";

/** PostgreSQL and nats-server both present (under CI=true a missing one throws instead). */
export async function clusterInfraReady(): Promise<boolean> {
  const pg = requireInfra("PostgreSQL", await postgresAvailable());
  const nats = requireInfra("nats-server", natsServerAvailable());
  return pg && nats;
}
