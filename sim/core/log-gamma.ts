/**
 * ln Γ(x) for x > 0, by the Lanczos approximation (g = 7, 9 terms), accurate to about 1e-15
 * relative. The Poisson sampler needs it for its acceptance test on large means.
 */
const G = 7;
const COEFFICIENTS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

export function logGamma(x: number): number {
  if (x < 0.5) {
    // Reflection keeps the series in the region where it converges well.
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  }
  const z = x - 1;
  let sum = COEFFICIENTS[0];
  for (let i = 1; i < G + 2; i++) sum += COEFFICIENTS[i] / (z + i);
  const t = z + G + 0.5;
  return HALF_LOG_TWO_PI + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}
