/**
 * The format of every id that appears as a path parameter: the parameter's name -> the
 * prefix of the public ids it holds (newId in @petri/service-kit: "<prefix>_" + 26 base32
 * characters). A value of another shape cannot name anything, so it is 404 not_found before
 * any service call or query. Parameters not listed here (file names, provider and template
 * names) are free text and only checked for characters PostgreSQL refuses.
 */
export const PATH_ID_PREFIXES: Readonly<Record<string, string>> = {
  account_id: "usr",
  api_key_id: "key",
  delivery_id: "msg",
  dispute_id: "dsp",
  experiment_id: "exp",
  file_id: "fil",
  hypothesis_id: "hyp",
  operator_id: "op",
  run_id: "run",
  submission_id: "cls",
};
