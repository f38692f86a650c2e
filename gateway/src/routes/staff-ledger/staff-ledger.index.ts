import { createRouter } from "../../lib/create-app.js";
import { checkLedgerHandler } from "./staff-ledger.handlers.js";
import { checkLedger } from "./staff-ledger.routes.js";

export const staffLedgerRouter = createRouter().openapi(checkLedger, checkLedgerHandler);
