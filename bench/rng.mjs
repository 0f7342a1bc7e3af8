// The benchmarks' deterministic PRNG (mulberry32), so every run measures the same documents.

/** Returns a function yielding numbers in [0, 1) from `seed`, the same sequence every run. */
export function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
