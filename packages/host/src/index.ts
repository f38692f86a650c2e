export {
  createServiceRuntime,
  type ConsumerDefinition,
  type ServiceDeps,
  type ServiceRuntimeOptions,
} from "./service-runtime.js";
export { CLUSTER_COMMANDS, runClusterService, type ClusterServiceOptions } from "./cluster-host.js";
export { MIGRATIONS_CHECK, awaitMigrations, type AwaitMigrationsOptions } from "./await-migrations.js";
