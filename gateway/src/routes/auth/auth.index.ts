import { createRouter } from "../../lib/create-app.js";
import { registerHandler } from "./auth.handlers.js";
import { register } from "./auth.routes.js";

export const authRouter = createRouter().openapi(register, registerHandler);
