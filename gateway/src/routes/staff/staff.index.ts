import { createRouter } from "../../lib/create-app.js";
import { legacyStaffAlias } from "../../lib/staff-aliases.js";
import { rotateSigningKeyHandler, updateAccountAccessHandler } from "./staff.handlers.js";
import { rotateSigningKey, updateAccountAccess } from "./staff.routes.js";

export const staffRouter = createRouter()
  .openapi(updateAccountAccess, updateAccountAccessHandler)
  .openapi(rotateSigningKey, rotateSigningKeyHandler)
  .openapi(legacyStaffAlias(updateAccountAccess), updateAccountAccessHandler)
  .openapi(legacyStaffAlias(rotateSigningKey), rotateSigningKeyHandler);
