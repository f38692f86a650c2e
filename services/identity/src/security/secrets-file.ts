/**
 * Standalone mode keeps identity's two secrets (the KEK and the API key pepper) in
 * <dataDir>/identity-secrets.json (service-kit's loadOrCreateSecretsFile): signing keys and
 * API keys then keep working across restarts. (Cluster mode takes them from the environment.)
 */
import {
  KEK_BYTES,
  generateSecrets,
  loadOrCreateSecretsFile,
  type SecretsFileSpec,
} from "@petri/service-kit";
import { API_KEY_PEPPER_MIN_BYTES } from "./api-keys.js";

export const IDENTITY_SECRETS_FILE = "identity-secrets.json";

export interface IdentitySecrets {
  /** 32 bytes: PETRI_IDENTITY_KEK. */
  kek: Buffer;
  /** At least 32 bytes: PETRI_API_KEY_PEPPER. */
  apiKeyPepper: Buffer;
}

const IDENTITY_SECRETS: SecretsFileSpec<"kek" | "api_key_pepper"> = {
  fileName: IDENTITY_SECRETS_FILE,
  description: "identity secrets",
  secrets: {
    kek: { bytes: KEK_BYTES },
    api_key_pepper: { bytes: API_KEY_PEPPER_MIN_BYTES, minBytes: API_KEY_PEPPER_MIN_BYTES },
  },
};

export function generateIdentitySecrets(): IdentitySecrets {
  const { kek, api_key_pepper } = generateSecrets(IDENTITY_SECRETS);
  return { kek, apiKeyPepper: api_key_pepper };
}

/** The secrets from <dataDir>/identity-secrets.json, created on first use; new ones for "memory://". */
export async function loadOrCreateIdentitySecrets(dataDir: string): Promise<IdentitySecrets> {
  const { kek, api_key_pepper } = await loadOrCreateSecretsFile(dataDir, IDENTITY_SECRETS);
  return { kek, apiKeyPepper: api_key_pepper };
}
