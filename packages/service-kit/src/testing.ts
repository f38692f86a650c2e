/**
 * Test support that belongs with the library's modules but not in its main entry:
 * `import { SSRF_CORPUS } from "@petri/service-kit/testing"` (tests only).
 */
export {
  type CorpusEntry,
  PUBLIC_CONTROLS,
  SSRF_CORPUS,
  corpusResolver,
} from "./outbound-url/ssrf-corpus.js";
export { repeatedLogKeys } from "./log-line-keys.js";
export { metricSample } from "./metric-sample.js";
