import { createRouter } from "../../lib/create-app.js";
import {
  changePasswordHandler,
  getMeHandler,
  issueTokenHandler,
  registerHandler,
  revokeTokenHandler,
} from "./auth.handlers.js";
import { changePassword, getMe, issueToken, register, revokeToken } from "./auth.routes.js";

export const authRouter = createRouter()
  .openapi(register, registerHandler)
  .openapi(issueToken, issueTokenHandler)
  .openapi(revokeToken, revokeTokenHandler)
  .openapi(changePassword, changePasswordHandler)
  .openapi(getMe, getMeHandler);
