/** Test support for other packages (the e2e suite): the query corpus and the fake provider servers. */
export { ENGINE_QUERY_CORPUS, type CorpusEntry } from "./query-corpus.js";
export * from "../providers/testing/index.js";
