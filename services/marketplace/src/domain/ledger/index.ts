export * from "./accounts.js";
export * from "./errors.js";
export * from "./postings.js";
export * from "./experiment-ledger.js";
export * from "./event-postings.js";
export * from "./payment-provider.js";
