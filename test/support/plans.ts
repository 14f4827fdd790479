// A small builder for hand-written IR plans in tests: statements with OPA's JSON field names,
// interned strings, funcs and plans, builtin declarations. `policy.json()` gives the plan JSON as
// `opa build -t plan` writes it (location fields inside `stmt`).

export type Operand = { type: "local"; value: number } | { type: "bool"; value: boolean } | { type: "string_index"; value: number };
export type StmtJSON = { type: string; stmt: Record<string, unknown> };
export type BlockJSON = { stmts: StmtJSON[] };

export const L = (n: number): Operand => ({ type: "local", value: n });
export const T: Operand = { type: "bool", value: true };
export const F: Operand = { type: "bool", value: false };

let row = 1;
/** A statement; `loc` overrides the location (default: file 0, rows counting from 1 for each new builder, col 1). */
export function st(type: string, fields: Record<string, unknown> = {}, loc?: { file?: number; row?: number; col?: number }): StmtJSON {
  return { type, stmt: { ...fields, file: loc?.file ?? 0, row: loc?.row ?? row++, col: loc?.col ?? 1 } };
}

export const block = (...stmts: StmtJSON[]): BlockJSON => ({ stmts });

export class PolicyBuilder {
  readonly strings: string[] = [];
  readonly files: string[] = ["policy.rego"];
  private readonly builtins = new Map<string, { name: string; decl: Record<string, unknown> }>();
  private readonly plans: Array<{ name: string; blocks: BlockJSON[] }> = [];
  private readonly funcs: Array<{ name: string; params: number[]; return: number; blocks: BlockJSON[]; path: string[] }> = [];

  constructor() {
    row = 1; // statement rows are deterministic per plan (golden files)
  }

  /** The index of a string constant (interned). */
  si(s: string): number {
    let i = this.strings.indexOf(s);
    if (i < 0) i = this.strings.push(s) - 1;
    return i;
  }

  /** A string_index operand. */
  s(s: string): Operand {
    return { type: "string_index", value: this.si(s) };
  }

  builtin(name: string, arity: number, result: Record<string, unknown> | null = { type: "any" }): this {
    const decl: Record<string, unknown> = { type: "function", args: Array.from({ length: arity }, () => ({ type: "any" })) };
    if (result) decl.result = result;
    this.builtins.set(name, { name, decl });
    return this;
  }

  plan(name: string, ...blocks: BlockJSON[]): this {
    this.plans.push({ name, blocks });
    return this;
  }

  func(name: string, params: number[], ret: number, blocks: BlockJSON[], path?: string[]): this {
    this.funcs.push({ name, params, return: ret, blocks, path: path ?? name.split(".").filter((p, i) => i !== 1) });
    return this;
  }

  // ---- statement shorthands ----
  call(func: string, args: Operand[], result: number) {
    return st("CallStmt", { func, args, result });
  }
  dot(source: Operand, key: Operand, target: number) {
    return st("DotStmt", { source, key, target });
  }
  num(text: string, target: number) {
    return st("MakeNumberRefStmt", { Index: this.si(text), target });
  }
  int(value: number, target: number) {
    return st("MakeNumberIntStmt", { value, target });
  }
  assign(source: Operand, target: number) {
    return st("AssignVarStmt", { source, target });
  }
  once(source: Operand, target: number, loc?: { row?: number; col?: number }) {
    return st("AssignVarOnceStmt", { source, target }, loc);
  }
  brk(index: number) {
    return st("BreakStmt", { index });
  }
  scan(source: number, key: number, value: number, ...stmts: StmtJSON[]) {
    return st("ScanStmt", { source, key, value, block: block(...stmts) });
  }
  blocks(...blocks: BlockJSON[]) {
    return st("BlockStmt", { blocks });
  }
  not(...stmts: StmtJSON[]) {
    return st("NotStmt", { block: block(...stmts) });
  }
  with(local: number, path: string[] | null, value: Operand, ...stmts: StmtJSON[]) {
    return st("WithStmt", { local, path: path === null ? null : path.map((p) => this.si(p)), value, block: block(...stmts) });
  }
  /** `MakeObject r; ObjectInsert(r, name, v); ResultSetAdd r` — one row binding `name`. */
  result(name: string, value: Operand, r: number): StmtJSON[] {
    return [st("MakeObjectStmt", { target: r }), st("ObjectInsertStmt", { object: r, key: this.s(name), value }), st("ResultSetAddStmt", { value: r })];
  }
  /** The shape `opa build` gives an entrypoint: `result = data.<func>`. */
  entry(name: string, func: string): this {
    return this.plan(name, block(this.call(func, [L(0), L(1)], 2), this.assign(L(2), 3), ...this.result("result", L(3), 4)));
  }

  json(): Record<string, unknown> {
    return {
      static: {
        strings: this.strings.map((value) => ({ value })),
        builtin_funcs: [...this.builtins.values()].sort((a, b) => (a.name < b.name ? -1 : 1)),
        files: this.files.map((value) => ({ value })),
      },
      plans: { plans: this.plans },
      funcs: { funcs: this.funcs },
    };
  }
}

/** A complete rule func: `g0.data.<path>` with lresult 3 and `body` (which must set local 3). */
export function ruleFunc(b: PolicyBuilder, name: string, body: StmtJSON[], defaultValue?: Operand): void {
  const blocks = [
    block(st("ResetLocalStmt", { target: 3 }), ...body),
    block(st("IsDefinedStmt", { source: 3 }), b.once(L(3), 2)),
  ];
  if (defaultValue) blocks.push(block(st("IsUndefinedStmt", { source: 2 }), b.once(defaultValue, 2)));
  blocks.push(block(st("ReturnLocalStmt", { source: 2 })));
  b.func(name, [0, 1], 2, blocks);
}
