/**
 * Standalone mode keeps the notifications KEK in <dataDir>/notifications-secrets.json
 * (service-kit's loadOrCreateSecretsFile), so webhook signing secrets keep opening across
 * restarts. (Cluster mode takes it from PETRI_NOTIFICATIONS_KEK.)
 */
import { KEK_BYTES, loadOrCreateSecretsFile, type SecretsFileSpec } from "@petri/service-kit";

export const NOTIFICATIONS_SECRETS_FILE = "notifications-secrets.json";

const NOTIFICATIONS_SECRETS: SecretsFileSpec<"kek"> = {
  fileName: NOTIFICATIONS_SECRETS_FILE,
  description: "notifications secrets",
  secrets: { kek: { bytes: KEK_BYTES } },
};

/** The KEK from <dataDir>/notifications-secrets.json, created on first use; a new one for "memory://". */
export async function loadOrCreateNotificationsKek(dataDir: string): Promise<Buffer> {
  return (await loadOrCreateSecretsFile(dataDir, NOTIFICATIONS_SECRETS)).kek;
}
