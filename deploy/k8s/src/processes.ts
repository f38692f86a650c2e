/**
 * Petri's processes as Kubernetes runs them: the gateway and the seven services, each its own
 * image (petri/<name>, deploy/docker/Dockerfile with --build-arg SERVICE=<name>) and
 * Deployment; every service also has a <name>-migrate Job.
 */
export interface PetriProcess {
  /** The Kubernetes name, image name and services/<name> directory (cloud-labs, not cloudlabs). */
  name: string;
  role: "gateway" | "service";
  /** Its PostgreSQL schema (services only). */
  schema?: string;
}

export const PROCESSES: readonly PetriProcess[] = [
  { name: "gateway", role: "gateway" },
  { name: "identity", role: "service", schema: "identity" },
  { name: "experiments", role: "service", schema: "experiments" },
  { name: "marketplace", role: "service", schema: "marketplace" },
  { name: "hypotheses", role: "service", schema: "hypotheses" },
  { name: "engine", role: "service", schema: "engine" },
  { name: "cloud-labs", role: "service", schema: "cloudlabs" },
  { name: "notifications", role: "service", schema: "notifications" },
];

export const SERVICES = PROCESSES.filter((process) => process.role === "service");

/** The port every Petri container listens on (PORT), named "http" everywhere. */
export const HTTP_PORT = 8080;
