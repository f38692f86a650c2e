export type { Database, DatabaseConfig, PoolUsage } from "./database.js";
export { observeDatabasePool } from "./pool-metrics.js";
export { createDatabase } from "./create-database.js";
export {
  MIGRATION_LOCK_TABLE,
  MIGRATION_NAME,
  MIGRATION_TABLE,
  MigrationError,
  type MigrationStatus,
  migrateToLatest,
  migrationStatus,
} from "./migrate.js";
export {
  addDeadLetterReplayColumns,
  createMessagingTables,
  dropDeadLetterReplayColumns,
  dropMessagingTables,
  type DeadLettersTable,
  type IdempotencyKeysTable,
  type IdempotencyStatus,
  type InboxTable,
  type JsonValue,
  type JsonbColumn,
  type MessagingTables,
  type OutboxTable,
} from "./messaging-tables.js";
export {
  beginIdempotent,
  completeIdempotent,
  type BeginIdempotentResult,
  type IdempotencyDb,
  type IdempotencyKeyRef,
} from "./idempotency.js";
export { jsonb } from "./json.js";
export { isRetryableTransactionError, isUniqueViolation, sqlState, violatedConstraint } from "./errors.js";
export { UnsafeIntegerError, parseInt8 } from "./type-parsers.js";
export { runThenCallbacks, transactionWithCommitHooks, type OnCommit } from "./after-commit.js";
export {
  FixedQuery,
  FixedQueryVariants,
  QueryNeutralPlugin,
  type FixedQueryOptions,
  type ValueOf,
} from "./fixed-query.js";
export { LeasedQueue, type LeaseRef, type LeaseRequest, type LeasedQueueTable } from "./leased-queue.js";
