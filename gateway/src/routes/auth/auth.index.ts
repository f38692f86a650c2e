import { createRouter } from "../../lib/create-app.js";
import { getMeHandler, issueTokenHandler, registerHandler } from "./auth.handlers.js";
import { getMe, issueToken, register } from "./auth.routes.js";

export const authRouter = createRouter()
  .openapi(register, registerHandler)
  .openapi(issueToken, issueTokenHandler)
  .openapi(getMe, getMeHandler);
