export { interpretIntake, MAX_PROBLEMS, type InterpretResult } from "./interpret.js";
export { dilutionSeries, readable, type SeriesKind } from "./series.js";
/** Placeholders a plan carries when the intake did not name them (the notes say so too). */
export { STANDARD_MEDIUM } from "./builders/growth.js";
export { STANDARD_SUBSTRATE } from "./builders/enzyme.js";
