// The Rego names of locals (GenerateOptions.localNames) through the passes: a pass that makes the
// code read one local where it read another hands the other's name on, so that `item` survives
// copy propagation of `item := <scan value>`.
import type { LocalNames } from "../codegen/emit/context.js";
import type { Func, Plan } from "../ir/types.js";

export class NameTable {
  private readonly funcs: Map<string, Array<string | undefined>>;
  private readonly plans: Map<string, Array<string | undefined>>;

  constructor(private readonly given: LocalNames | undefined) {
    this.funcs = new Map();
    this.plans = new Map();
  }

  private table(body: Plan | Func, create: boolean): Array<string | undefined> | undefined {
    const own = "params" in body ? this.funcs : this.plans;
    let t = own.get(body.name);
    if (t === undefined && create) {
      const given = ("params" in body ? this.given?.funcs : this.given?.plans)?.get(body.name);
      own.set(body.name, (t = given ? [...given] : []));
    }
    return t ?? ("params" in body ? this.given?.funcs : this.given?.plans)?.get(body.name) as Array<string | undefined> | undefined;
  }

  /** Whether local `l` has a Rego name. */
  named(body: Plan | Func, l: number): boolean {
    return this.table(body, false)?.[l] !== undefined;
  }

  /** `to` takes `from`'s name when it has none of its own (callers make sure `to` has one role in
   * the body: it is written once). */
  inherit(body: Plan | Func, from: number, to: number): void {
    this.adopt(body, from, body, to);
  }

  /** Local `to` of `body` takes the name local `from` has in `source` (a local copied in from
   * another func: an inlined or fused one), when it has none of its own. */
  adopt(source: Plan | Func, from: number, body: Plan | Func, to: number): void {
    if (this.given === undefined) return;
    const name = this.table(source, false)?.[from];
    if (name === undefined || this.table(body, false)?.[to] !== undefined) return;
    this.table(body, true)![to] = name;
  }

  /** The names after the passes (undefined when none were given). */
  result(): LocalNames | undefined {
    if (this.given === undefined) return undefined;
    return {
      funcs: new Map([...this.given.funcs, ...this.funcs]),
      plans: new Map([...this.given.plans, ...this.plans]),
    };
  }
}
