/**
 * Every process the cluster runs, with the entry point its bundle starts from. The Dockerfile's
 * SERVICE build argument and deploy/local/start.sh accept exactly these names.
 */
export const BUNDLED_SERVICES = {
  gateway: "gateway/src/main.ts",
  identity: "services/identity/src/main.ts",
  experiments: "services/experiments/src/main.ts",
  marketplace: "services/marketplace/src/main.ts",
  hypotheses: "services/hypotheses/src/main.ts",
  engine: "services/engine/src/main.ts",
  "cloud-labs": "services/cloud-labs/src/main.ts",
  notifications: "services/notifications/src/main.ts",
} as const;

export type BundledService = keyof typeof BUNDLED_SERVICES;

export const SERVICE_NAMES = Object.keys(BUNDLED_SERVICES) as BundledService[];

export function isBundledService(name: string): name is BundledService {
  return Object.hasOwn(BUNDLED_SERVICES, name);
}
