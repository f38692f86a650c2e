/** One problem in a document: where (JSON Pointer), which rule, and what is wrong. */
export interface Violation {
  path: string;
  rule: string;
  message: string;
}
