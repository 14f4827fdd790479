// Shared helpers for bench/*.bench.ts.

export interface Bench {
  /** Section heading in RESULTS.md. */
  title: string;
  /** Runs the measurements and returns the section body as Markdown. */
  run(): Promise<string>;
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : ((s[m - 1]! + s[m]!) / 2);
}

/** Runs fn repeatedly for about `ms` milliseconds (after a warm-up) and returns ns per call. */
export function nsPerCall(fn: () => unknown, ms = 500): number {
  for (let i = 0; i < 1000; i++) fn();
  let n = 0;
  const t0 = process.hrtime.bigint();
  const end = t0 + BigInt(ms) * 1_000_000n;
  let t = t0;
  while (t < end) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
    t = process.hrtime.bigint();
  }
  return Number(t - t0) / n;
}

/** Like nsPerCall, but by the process's CPU time (process.cpuUsage: user + system) for about `ms`
 * milliseconds of it: on a shared machine, time spent descheduled is not counted. Calls run in
 * batches of at least half a millisecond, so reading the CPU time costs next to nothing. */
export function cpuNsPerCall(fn: () => unknown, ms = 500): number {
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  let batch = 1;
  for (;;) {
    const s = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn();
    if (process.hrtime.bigint() - s >= 500_000n) break;
    batch *= 2;
  }
  let n = 0;
  const t0 = cpu();
  const end = t0 + ms * 1000;
  let t = t0;
  while (t < end) {
    for (let i = 0; i < batch; i++) fn();
    n += batch;
    t = cpu();
  }
  return ((t - t0) * 1000) / n;
}

/** Median µs per call of an async function over rounds of `n` calls, after a warm-up. */
export async function usPerCall(fn: () => Promise<unknown>, n: number, rounds = 7): Promise<number> {
  for (let i = 0; i < n; i++) await fn();
  const per: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    per.push(Number(process.hrtime.bigint() - t0) / 1000 / n);
  }
  return median(per);
}

