// Minimal local typing for the parts of jstat 1.9.6 used by the acceptance module (the package ships
// no TypeScript declarations). Only the functions called in stats.ts are declared.
declare module "jstat" {
  interface JStatStatic {
    /** Student t cumulative distribution function P(T <= x) with `dof` degrees of freedom. */
    studentt: { cdf(x: number, dof: number): number };
    /** Central F cumulative distribution function P(F <= x). */
    centralF: { cdf(x: number, df1: number, df2: number): number };
    /** Chi-square cumulative distribution function P(X <= x). */
    chisquare: { cdf(x: number, dof: number): number };
    /** Normal cumulative distribution function. */
    normal: { cdf(x: number, mean: number, std: number): number };
    /** Regularised incomplete beta function I_x(a, b). */
    ibeta(x: number, a: number, b: number): number;
    /** log Γ(x). */
    gammaln(x: number): number;
  }
  const jStat: JStatStatic;
  export default jStat;
}
