/**
 * The offline rules engine's hand-curated vocabulary (see each file's header for what it holds
 * and where it comes from). Pure data: no I/O.
 */
export { ANTIMICROBIALS } from "./antimicrobials.js";
export { CELL_LINES } from "./cell-lines.js";
export { REFERENCE_COMPOUNDS } from "./compounds.js";
export { ENZYMES } from "./enzymes.js";
export { GENES } from "./genes.js";
export { MEDIA } from "./media.js";
export { DISTINCTIVE_STRAINS, ORGANISMS } from "./organisms.js";
export type * from "./types.js";
