// The hot reloader on real files (a temp dir) with real chokidar. No timing assertions: every
// test waits for the reloader's own callbacks; the timeouts only keep a broken reloader from
// hanging the run.
import { expect } from "chai";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine, HotReloader, type HotReloaderOptions, type ReloadEvent, type RegoError } from "regoc";
import { rejected } from "../support/errors.js";

const policy = (v: number | string) => `package t\n\nv := ${v}\n\nallow if v > 1\n`;
const GUARD_MS = 8_000;

/** Records the reloader's callbacks and lets a test wait for a condition on them. */
class Recorder {
  readonly reloads: ReloadEvent[] = [];
  readonly errors: RegoError[] = [];
  private readonly waiters = new Set<() => void>();

  readonly callbacks: Pick<HotReloaderOptions, "onReload" | "onError"> = {
    onReload: (e) => this.push(this.reloads, e),
    onError: (e) => this.push(this.errors, e),
  };

  /** Resolves once `cond` holds, re-checked after every callback. */
  until(what: string, cond: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const guard = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, GUARD_MS);
      const check = () => {
        if (!cond()) return;
        this.waiters.delete(check);
        clearTimeout(guard);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves once the reloader's decision is `value` (checked after each reload). */
  async untilDecision(r: HotReloader, value: unknown): Promise<void> {
    for (;;) {
      const seen = this.reloads.length; // read before deciding: a reload meanwhile is not missed
      if ((await r.decide({})) === value) return;
      await this.until(`the decision ${String(value)}`, () => this.reloads.length > seen);
    }
  }

  private push<T>(list: T[], item: T): void {
    list.push(item);
    for (const check of [...this.waiters]) check();
  }
}

/**
 * A Kubernetes ConfigMap volume: the files live in a `..<timestamp>` snapshot directory, `..data`
 * links to the current snapshot, and each visible name links through `..data`. Plus an emacs lock
 * file (a dangling symlink ending in .rego), another dangling link, a directory link to itself, and
 * a .rego symlinked from outside the directory.
 */
function configMapDir(root: string): { dir: string; update(v: number): void } {
  const dir = join(root, "volume");
  mkdirSync(dir);
  let n = 0;
  const snapshot = (v: number): string => {
    const name = `..2026_11_28_${++n}`;
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, "policy.rego"), policy(v));
    return name;
  };
  symlinkSync(snapshot(1), join(dir, "..data"));
  symlinkSync(join("..data", "policy.rego"), join(dir, "policy.rego"));
  symlinkSync("alice@host.4242:1700000000", join(dir, ".#policy.rego"));
  symlinkSync("deleted.rego", join(dir, "stale.rego")); // dangling
  symlinkSync(".", join(dir, "loop")); // a directory link back to itself
  mkdirSync(join(root, "shared"));
  writeFileSync(join(root, "shared", "extra.rego"), "package extra\n\nw := 5\n");
  symlinkSync(join(root, "shared", "extra.rego"), join(dir, "extra.rego"));
  return {
    dir,
    update(v) {
      // As the kubelet does: a new snapshot, `..data` swapped in one rename, the old one removed.
      const old = `..2026_11_28_${n}`;
      symlinkSync(snapshot(v), join(dir, "..data_tmp"));
      renameSync(join(dir, "..data_tmp"), join(dir, "..data"));
      rmSync(join(dir, old), { recursive: true });
    },
  };
}

/** fs.watch handles alive in this process (chokidar's watchers are these). */
function watchHandles(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap" || r === "StatWatcher").length;
}

describe("HotReloader (real files, real chokidar)", function () {
  this.timeout(20_000);
  let dir: string;
  let file: string;
  let rec: Recorder;
  const open: HotReloader[] = [];

  const start = async (options: Partial<HotReloaderOptions> = {}) => {
    const r = await HotReloader.create({ dir, query: "data.t.v", ...rec.callbacks, ...options });
    open.push(r);
    return r;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "regoc-reload-"));
    file = join(dir, "policy.rego");
    writeFileSync(file, policy(1));
    rec = new Recorder();
  });
  afterEach(async () => {
    for (const r of open.splice(0)) await r.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("first load: answers at once, generation 1", async () => {
    const r = await start();
    expect(await r.decide({})).to.equal(1);
    expect(await r.evaluate({})).to.deep.equal([
      { expressions: [{ value: 1, text: "data.t.v", location: { row: 1, col: 1 } }], bindings: {} },
    ]);
    const s = r.status();
    expect(s).to.include({ generation: 1, compiles: 1, compiling: false, closed: false, lastError: undefined });
    expect(s.files).to.deep.equal([file]);
    expect(s.revision).to.match(/^[0-9a-f]{16}$/);
    expect(rec.reloads).to.deep.equal([]);
  });

  it("a change gives a new decision; authorize follows the Authorizer's rules", async () => {
    const r = await start({ query: "data.t.allow" });
    expect(await r.authorize({})).to.equal(false); // allow is undefined → false
    const before = r.status().revision;
    writeFileSync(file, policy(2));
    await rec.until("the reload", () => rec.reloads.length === 1);
    expect(await r.authorize({})).to.equal(true);
    expect(rec.reloads[0]).to.include({ generation: 2 });
    expect(r.status().revision).to.not.equal(before);
  });

  it("a burst of writes gives exactly one compile", async () => {
    const r = await start();
    for (let v = 10; v < 20; v++) writeFileSync(file, policy(v));
    await rec.until("the burst's reload", () => rec.reloads.length >= 1);
    expect(await r.decide({})).to.equal(19);
    // A sentinel write: had the burst caused a second compile, it would be counted before this one.
    writeFileSync(file, policy(99));
    await rec.until("the sentinel's reload", () => rec.reloads.length >= 2);
    expect(await r.decide({})).to.equal(99);
    expect(rec.reloads.map((e) => e.generation)).to.deep.equal([2, 3]);
    expect(r.status().compiles).to.equal(3); // first load, burst, sentinel
    expect(rec.errors).to.deep.equal([]);
  });

  it("a broken write keeps the old policy and reports where; the next good write recovers", async () => {
    const r = await start();
    writeFileSync(file, "package t\n\nv := \n");
    await rec.until("the error", () => rec.errors.length === 1);
    const err = rec.errors[0]!;
    expect(err.code).to.equal("rego_parse_error");
    expect(err.location).to.include({ file, row: 4 });
    expect(err.toString()).to.match(/policy\.rego:4:\d+: rego_parse_error: HotReloader: the policy in .* does not compile/);
    expect(await r.decide({})).to.equal(1);
    expect(r.status()).to.include({ generation: 1, lastError: err });

    writeFileSync(file, policy(3));
    await rec.until("the recovery", () => rec.reloads.length === 1);
    expect(await r.decide({})).to.equal(3);
    expect(r.status()).to.include({ generation: 2, lastError: undefined });
  });

  it("a failing first load rejects with the location and leaves no watcher", async () => {
    const handles = watchHandles();
    writeFileSync(file, "package t\n\nv := [1,\n");
    const err = await rejected(start());
    expect(err.code).to.equal("rego_parse_error");
    expect(err.location?.file).to.equal(file);
    expect(watchHandles()).to.equal(handles);

    const missing = await rejected(start({ dir: join(dir, "nope") }));
    expect(missing.message).to.match(/cannot read .*nope/);
    expect(watchHandles()).to.equal(handles);
  });

  it("add and unlink of a .rego file trigger reloads", async () => {
    const r = await start();
    const extra = join(dir, "extra.rego");
    writeFileSync(extra, "package t\n\nw := 2\n");
    await rec.until("the add", () => rec.reloads.length === 1);
    expect(rec.reloads[0]!.files).to.deep.equal([extra, file]);
    unlinkSync(extra);
    await rec.until("the unlink", () => rec.reloads.length === 2);
    expect(rec.reloads[1]!.files).to.deep.equal([file]);
    expect(r.status().generation).to.equal(3);
  });

  it("data.json documents are loaded at their directory's path and reloaded", async () => {
    writeFileSync(file, "package t\n\nv := data.limits.max\n");
    writeFileSync(join(dir, "data.json"), JSON.stringify({ limits: { max: 5 } }));
    const r = await start({ data: { limits: { max: 0 }, other: true } });
    expect(await r.decide({})).to.equal(5);
    writeFileSync(join(dir, "data.json"), JSON.stringify({ limits: { max: 6 } }));
    await rec.until("the data reload", () => rec.reloads.length === 1);
    expect(await r.decide({})).to.equal(6);
  });

  it("an empty data.yaml is null and a non-object data.json its value, at their directory's path (as OPA's bundle reader)", async () => {
    writeFileSync(file, "package t\n\nv := [data.x == null, data.y]\n");
    mkdirSync(join(dir, "x"));
    mkdirSync(join(dir, "y"));
    writeFileSync(join(dir, "x", "data.yaml"), "");
    writeFileSync(join(dir, "y", "data.json"), "[1,2]");
    const r = await start();
    expect(await r.decide({})).to.deep.equal([true, [1, 2]]);
  });

  it("a write during a compile is compiled after it: the last write wins", async () => {
    const r = await start();
    writeFileSync(file, policy(2));
    await new Promise<void>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error("no compile seen")), GUARD_MS);
      const poll = () => {
        if (!r.status().compiling) return void setImmediate(poll);
        clearTimeout(guard);
        writeFileSync(file, policy(3)); // synchronously, while the compile of v := 2 runs
        resolve();
      };
      poll();
    });
    await rec.untilDecision(r, 3);
    const generations = rec.reloads.map((e) => e.generation);
    expect(generations).to.deep.equal([...generations].sort((a, b) => a - b));
    expect(r.status().generation).to.equal(generations.at(-1));
  });

  it("a deleted directory is reported, not a crash; the old policy keeps answering", async () => {
    const r = await start();
    rmSync(dir, { recursive: true, force: true });
    await rec.until("the error", () => rec.errors.some((e) => /cannot read|no \.rego files/.test(e.message)));
    expect(await r.decide({})).to.equal(1);
  });

  for (const debounceMs of [0, 5, 20]) {
    it(`saves 10 ms apart with a debounce of ${debounceMs} ms: the last write wins`, async () => {
      const r = await start({ debounceMs });
      for (let v = 2; v <= 6; v++) {
        writeFileSync(file, policy(v));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await rec.untilDecision(r, 6);
    });
  }

  it("a ConfigMap volume (symlinks through ..data, a dangling lock file): each module once, and updates are seen", async () => {
    const volume = configMapDir(dir);
    const r = await start({ dir: volume.dir });
    expect(await r.decide({})).to.equal(1);
    expect(r.status().files).to.deep.equal([join(volume.dir, "extra.rego"), join(volume.dir, "policy.rego")]);
    volume.update(2);
    await rec.untilDecision(r, 2);
  });

  it("Engine({policyDir}) reads a ConfigMap volume as the HotReloader does", async () => {
    const volume = configMapDir(dir);
    const engine = await Engine.create({ policyDir: volume.dir });
    expect(Object.keys(engine.modules).map((f) => f.split(/[\\/]/).pop())).to.deep.equal(["extra.rego", "policy.rego"]);
    expect((await engine.evaluate("data.t.v"))[0]!.expressions[0]!.value).to.equal(1);
    expect((await engine.evaluate("data.extra.w"))[0]!.expressions[0]!.value).to.equal(5);
  });

  it("close() stops watching: no watcher left, later writes are not seen", async () => {
    const handles = watchHandles();
    const a = await start();
    await a.close();
    expect(a.status().closed).to.equal(true);
    expect(watchHandles()).to.equal(handles);
    // A second reloader on the same directory is the witness that the write was noticed.
    const witness = new Recorder();
    await start(witness.callbacks);
    writeFileSync(file, policy(7));
    await witness.until("the witness's reload", () => witness.reloads.length === 1);
    expect(rec.reloads).to.deep.equal([]);
    expect(await a.decide({})).to.equal(1);
  });
});
