/**
 * `npm start`'s entry point. On the embedded database (the default) with a data directory on
 * disk, preparing the database's cluster begins here, before the rest of Petri is loaded: on a
 * fresh directory initdb takes about a second in processes of its own, as long as loading does,
 * and the host takes its outcome over (D316). The steps before initdb need the event loop, so
 * loading waits until initdb runs. Only Node's own modules are loaded before that.
 * The configuration is read and checked in full by run-from-environment.ts; what is read here
 * only decides whether to begin early, as that file will decide (an empty variable is unset).
 */
import { mkdirSync } from "node:fs";
import { DEFAULT_DATA_DIR, resolveDataDir } from "./data-dir.js";
import { beginPreparingEmbeddedCluster, embeddedClusterPaths } from "./embedded-cluster.js";

const setting = (name: string): string | undefined => process.env[name] || undefined;
const dataDir = resolveDataDir(setting("PETRI_DATA_DIR") ?? DEFAULT_DATA_DIR);
const embedded =
  setting("PETRI_DATABASE_URL") === undefined && (setting("PETRI_EMBEDDED_DB") ?? "postgres") === "postgres";
if (embedded && dataDir !== "memory://") {
  mkdirSync(dataDir, { recursive: true });
  await beginPreparingEmbeddedCluster(embeddedClusterPaths(dataDir));
}

await import("./run-from-environment.js");
