import type { CloudLabProvider } from "../domain/plan.js";
import { PROVIDERS, type SupportedType, supportedTypes } from "../domain/providers/index.js";
import { providerOrNotFound } from "./translation.js";

/** GET /cloud-labs/providers, /providers/{id}, /supported-types: the catalog, for any account. */
export const catalogUseCases = {
  listProviders(): readonly CloudLabProvider[] {
    return PROVIDERS;
  },
  getProvider(providerId: string): CloudLabProvider {
    return providerOrNotFound(providerId);
  },
  listSupportedTypes(): SupportedType[] {
    return supportedTypes();
  },
};
