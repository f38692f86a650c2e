// Free-form statistical test names ("Welch t-test", "Fisher's exact") mapped to supported tests.
import type { TestName } from "./stats.js";
import { key } from "./values.js";

/** Map a free-form test name to a supported test, or null. */
export function normaliseTestName(name: unknown): TestName | null {
  const k = key(name)
    .replace(/['\u2019]/g, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (
    [
      "t_test",
      "ttest",
      "t",
      "welch",
      "welch_t",
      "welch_t_test",
      "student_t",
      "students_t_test",
      "student_t_test",
      "two_sample_t_test",
    ].includes(k)
  )
    return "t_test";
  if (["anova", "one_way_anova", "oneway_anova", "f_test"].includes(k)) return "anova";
  if (
    [
      "mann_whitney",
      "mann_whitney_u",
      "mann_whitney_u_test",
      "mann_whitney_test",
      "wilcoxon_rank_sum",
      "wilcoxon_rank_sum_test",
      "mwu",
    ].includes(k)
  )
    return "mann_whitney";
  if (["chi_square", "chi_squared", "chi2", "chisq", "chi_square_test", "pearson_chi_square"].includes(k))
    return "chi_square";
  if (["fisher_exact", "fisher", "fishers_exact", "fisher_exact_test", "fishers_exact_test"].includes(k))
    return "fisher_exact";
  return null;
}
