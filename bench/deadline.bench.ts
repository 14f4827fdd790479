// Deadlines: how long after its deadline a runaway decision stops (eval_cancel_error). Wall time
// from the call to the error, median and worst of a few runs per deadline, as a ratio of the
// deadline (the goal: at most 1.2×).
import { Authorizer } from "regoc";
import { compileRego } from "regoc/compiler";
import { median, type Bench } from "./util.js";

const RUNS = 7;
const DEADLINES_MS = [50, 100, 250];

const POLICY = `package p
import rego.v1
const_range := count(numbers.range(0, 1000000000))
input_range := count(numbers.range(0, input.n))
pairs := count([1 | some x in input.a; some y in input.b; x == y + 1000000])
`;

const big = Array.from({ length: 100_000 }, (_, i) => i);

/** Milliseconds until `fn` fails with eval_cancel_error (anything else is a bench failure). */
function timeToCancel(fn: () => unknown): number {
  const t0 = performance.now();
  try {
    fn();
  } catch (e) {
    if ((e as { code?: string }).code !== "eval_cancel_error") throw e;
    return performance.now() - t0;
  }
  throw new Error("the runaway decision finished");
}

const bench: Bench = {
  title: "Deadlines: runaway decisions stopped by timeoutMs",
  async run() {
    const q = await compileRego({ modules: { "p.rego": POLICY }, entrypoints: ["p/const_range", "p/input_range", "p/pairs"] });
    const authz = await Authorizer.create({ policy: POLICY, query: "data.p.pairs > 0" });
    // The pace of building a long range here, to size one that takes about three times the
    // deadline: it is built until the deadline rather than refused at its start.
    let msPerNumber = Infinity;
    for (let i = 0; i < 2; i++) {
      const t0 = performance.now();
      q.evaluateSync({ entrypoint: "p/input_range", input: { n: 9_999_999 } });
      msPerNumber = Math.min(msPerNumber, (performance.now() - t0) / 9_999_999);
    }
    const cases: Array<[string, (timeoutMs: number) => unknown]> = [
      ["`numbers.range(0, 1e9)` (PreparedQuery)", (timeoutMs) => q.evaluateSync({ entrypoint: "p/const_range", timeoutMs })],
      ["`numbers.range(0, input.n)`, n = 1e9 (PreparedQuery)", (timeoutMs) => q.evaluateSync({ entrypoint: "p/input_range", input: { n: 1e9 }, timeoutMs })],
      ["`numbers.range(0, input.n)`, n built in about 3× the deadline (PreparedQuery)", (timeoutMs) => q.evaluateSync({ entrypoint: "p/input_range", input: { n: Math.round((3 * timeoutMs) / msPerNumber) }, timeoutMs })],
      ["nested loops over two 100 000-element arrays (PreparedQuery)", (timeoutMs) => q.evaluateSync({ entrypoint: "p/pairs", input: { a: big, b: big }, timeoutMs })],
      ["the same nested loops (Authorizer.authorizeSync)", (timeoutMs) => authz.authorizeSync({ a: big, b: big }, { timeoutMs })],
    ];
    const lines = [
      `Wall time from the call to its eval_cancel_error, ${RUNS} runs per deadline (after one warm-up run); ratio = time / deadline. The machine is shared: the worst run includes time descheduled.`,
      "",
      "| runaway decision | deadline | median | worst | median / deadline | worst / deadline |",
      "|---|---|---|---|---|---|",
    ];
    for (const [name, run] of cases) {
      for (const deadline of DEADLINES_MS) {
        timeToCancel(() => run(deadline));
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++) times.push(timeToCancel(() => run(deadline)));
        const m = median(times);
        const worst = Math.max(...times);
        lines.push(`| ${name} | ${deadline} ms | ${m.toFixed(1)} ms | ${worst.toFixed(1)} ms | **${(m / deadline).toFixed(2)}×** | ${(worst / deadline).toFixed(2)}× |`);
      }
    }
    return lines.join("\n");
  },
};
export default bench;
