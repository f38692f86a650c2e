import type { ServiceName } from "./index.js";

/** One JetStream stream per publishing service, holding subjects petri.<service>.>. */
export function streamFor(service: ServiceName): { name: string; subjects: string[] } {
  return { name: `PETRI_${service.toUpperCase()}`, subjects: [`petri.${service}.>`] };
}

export const SERVICE_NAMES: readonly ServiceName[] = [
  "identity",
  "experiments",
  "marketplace",
  "hypotheses",
  "engine",
  "cloudlabs",
  "notifications",
];
