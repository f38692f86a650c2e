import path from "node:path";

/** Where standalone keeps its data when PETRI_DATA_DIR is unset. */
export const DEFAULT_DATA_DIR = "./.petri";

/** PETRI_DATA_DIR as the host uses it: "memory://" (temporary, removed on stop) or an absolute path. */
export function resolveDataDir(setting: string): string {
  return setting === "memory://" ? setting : path.resolve(setting);
}
