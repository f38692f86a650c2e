export { createMarketplaceService, type MarketplaceDeps, type MarketplaceHostedService } from "./service.js";
export type { PaymentProvider } from "./domain/ledger/payment-provider.js";
