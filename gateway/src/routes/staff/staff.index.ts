import { createRouter } from "../../lib/create-app.js";
import { legacyStaffAlias } from "../../lib/staff-aliases.js";
import {
  getAdminAccountHandler,
  rotateSigningKeyHandler,
  updateAccountAccessHandler,
} from "./staff.handlers.js";
import { getAdminAccount, rotateSigningKey, updateAccountAccess } from "./staff.routes.js";

export const staffRouter = createRouter()
  .openapi(getAdminAccount, getAdminAccountHandler)
  .openapi(updateAccountAccess, updateAccountAccessHandler)
  .openapi(rotateSigningKey, rotateSigningKeyHandler)
  .openapi(legacyStaffAlias(updateAccountAccess), updateAccountAccessHandler)
  .openapi(legacyStaffAlias(rotateSigningKey), rotateSigningKeyHandler);
