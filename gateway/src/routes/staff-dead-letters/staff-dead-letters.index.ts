import { createRouter } from "../../lib/create-app.js";
import { listDeadLettersHandler, replayDeadLetterHandler } from "./staff-dead-letters.handlers.js";
import { listDeadLetters, replayDeadLetter } from "./staff-dead-letters.routes.js";

export const staffDeadLettersRouter = createRouter({ errorPaths: true })
  .openapi(listDeadLetters, listDeadLettersHandler)
  .openapi(replayDeadLetter, replayDeadLetterHandler);
