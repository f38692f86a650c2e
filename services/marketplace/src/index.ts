export { createMarketplaceService, type MarketplaceDeps, type MarketplaceHostedService } from "./service.js";
export type { PaymentProvider } from "./domain/ledger/payment-provider.js";
// The schema history, for checks across services (expand-only steps between releases).
export { marketplaceMigrations } from "./db/migrations/index.js";
