import { sampledGauge } from "@petri/service-kit";
import type { Database } from "./database.js";

const connections = sampledGauge({
  name: "petri_db_pool_connections",
  help: "Open database connections of a pool, by state (active: running a query or transaction)",
  labelNames: ["pool", "state"],
});
const waiting = sampledGauge({
  name: "petri_db_pool_waiting_queries",
  help: "Queries waiting for a pooled database connection",
  labelNames: ["pool"],
});
const ceiling = sampledGauge({
  name: "petri_db_pool_max_connections",
  help: "The pool's connection ceiling",
  labelNames: ["pool"],
});

/**
 * Reports `database`'s pool at every scrape under label pool=`name` (a service's name in
 * cluster mode, "standalone" for the pool standalone's services share). Nothing for PGlite,
 * which has no pool. Returns the function that stops reporting (call it on close).
 */
export function observeDatabasePool(database: Database, name: string): () => void {
  const removers = [
    connections.addSource(() => {
      const usage = database.poolUsage();
      if (!usage) return [];
      return [
        { labels: { pool: name, state: "idle" }, value: usage.idle },
        { labels: { pool: name, state: "active" }, value: usage.total - usage.idle },
      ];
    }),
    waiting.addSource(() => {
      const usage = database.poolUsage();
      return usage ? [{ labels: { pool: name }, value: usage.waiting }] : [];
    }),
    ceiling.addSource(() => {
      const usage = database.poolUsage();
      return usage ? [{ labels: { pool: name }, value: usage.max }] : [];
    }),
  ];
  return () => {
    for (const remove of removers) remove();
  };
}
