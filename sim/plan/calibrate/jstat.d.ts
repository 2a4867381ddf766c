// The few functions of jstat (pinned in package.json) that the calibrator uses; jstat ships no types.
declare module "jstat" {
  interface JStat {
    gamma: { cdf(x: number, shape: number, scale: number): number; inv(p: number, shape: number, scale: number): number };
    lognormal: { cdf(x: number, mu: number, sigma: number): number };
    weibull: { cdf(x: number, scale: number, shape: number): number };
    exponential: { cdf(x: number, rate: number): number };
    normal: { inv(p: number, mean: number, sd: number): number; cdf(x: number, mean: number, sd: number): number };
    studentt: { inv(p: number, dof: number): number };
    chisquare: { inv(p: number, dof: number): number };
    gammaln(x: number): number;
  }
  const jStat: JStat;
  export default jStat;
}
