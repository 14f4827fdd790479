// The watch loop of the hot reloader (reload.ts) and `regoc build --watch`: chokidar reports file
// events under some paths; `debounceMs` after the LAST relevant one, `rebuild` runs. Rebuilds never
// overlap: an event during one marks the state dirty and one more runs after it, so the last write
// always wins. A failed rebuild's error goes to `report`; what the caller keeps on failure is its own
// business (both keep the last good result).
//
// chokidar and node:path are imported lazily: the runtime index must stay loadable in browsers.
import type { FSWatcher } from "chokidar";
import { RegoError } from "./errors.js";

export interface ReloadWatchOptions {
  /** Directories or files to watch (recursively); dot-directories below them are not watched. */
  paths: readonly string[];
  /** Quiet time after the last relevant event before rebuilding (at least CHANGE_THROTTLE_MS). */
  debounceMs: number;
  /** Whether a changed file matters (adding or removing a directory always does). */
  relevant: (path: string) => boolean;
  /** One rebuild; resolves to its error, if any. */
  rebuild: () => Promise<RegoError | undefined>;
  /** A rebuild's error, or the watcher's. */
  report: (error: RegoError) => void;
  /** What a watcher error's message starts with (default: `watching <paths>`), before ` failed: `. */
  label?: string;
}

/** A Kubernetes ConfigMap volume's snapshot directory or its `..data` link (`..name` at the top of
 * the watched directory): dot-entries, but the volume's files live there. */
export function isConfigMapSnapshot(topSegment: string): boolean {
  return topSegment.startsWith("..") && topSegment.length > 2;
}

/** chokidar drops a file's `change` events within 50 milliseconds of the one it reported: a rebuild
 * that starts later than that after the last event has read every write, so none is lost. */
const CHANGE_THROTTLE_MS = 60;

export class ReloadWatch {
  private readonly options: ReloadWatchOptions;
  private watcher: FSWatcher | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The rebuild (or chain of rebuilds) running now. */
  private running: Promise<unknown> | undefined;
  /** An event arrived while a rebuild ran: rebuild again after it. */
  private dirty = false;
  private closed = false;

  private constructor(options: ReloadWatchOptions) {
    this.options = options;
  }

  /** Starts watching (resolves when the watcher is ready); no rebuild runs until `first()` or an event. */
  static async start(options: ReloadWatchOptions): Promise<ReloadWatch> {
    const w = new ReloadWatch(options);
    await w.watch();
    return w;
  }

  /** True while a rebuild runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Runs the first rebuild now and returns its error (not reported); events that came during it
   * schedule another. Start watching first: a write that lands during the first build is not lost. */
  async first(): Promise<RegoError | undefined> {
    const first = this.options.rebuild();
    this.running = first;
    try {
      return await first;
    } finally {
      this.running = undefined;
      if (this.dirty) this.schedule();
    }
  }

  /** Stops watching and drops any pending rebuild; waits for a running one. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const watcher = this.watcher;
    this.watcher = undefined;
    if (watcher) {
      await watcher.close();
      // libuv releases fs.watch handles in the close phase of the loop; the next timers phase comes
      // after it, so close() resolves when no handle is left (and nothing keeps the process alive).
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await this.running?.catch(() => undefined);
  }

  private async watch(): Promise<void> {
    const { watch } = await import("chokidar");
    const { relative, sep, isAbsolute } = await import("node:path");
    const roots = this.options.paths;
    // Dot-directories (.git) are not watched at all, except a ConfigMap volume's snapshots at the
    // top: the kubelet adds a new one, swaps `..data` to it and removes the old one. Judged below
    // each root, so that a root such as `./.policies` is still watched.
    const hidden = (path: string) =>
      roots.some((root) => {
        const rel = relative(root, path);
        if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
        return rel.split(sep).some((s, i) => s.startsWith(".") && !(i === 0 && isConfigMapSnapshot(s)));
      });
    const watcher = watch([...roots], { ignoreInitial: true, ignored: hidden });
    this.watcher = watcher;
    watcher.on("all", (event, path) => {
      // Directory events matter too: removing or renaming a folder removes its files.
      if (event === "addDir" || event === "unlinkDir" || this.options.relevant(path)) this.schedule();
    });
    watcher.on("error", (e) => {
      if (this.closed) return;
      const label = this.options.label ?? `watching ${roots.map((r) => JSON.stringify(r)).join(", ")}`;
      this.options.report(watchError(label, e));
    });
    await new Promise<void>((resolve) => watcher.once("ready", resolve));
  }

  /** (Re)starts the quiet period: a burst of events ends in one rebuild. */
  private schedule(): void {
    if (this.closed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, Math.max(this.options.debounceMs, CHANGE_THROTTLE_MS));
  }

  private kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.dirty = true;
      return;
    }
    this.running = this.rebuildWhileDirty().finally(() => {
      this.running = undefined;
    });
  }

  private async rebuildWhileDirty(): Promise<void> {
    do {
      this.dirty = false;
      const error = await this.options.rebuild();
      if (error && !this.closed) this.options.report(error);
    } while (this.dirty && !this.closed);
  }
}

/** The watcher itself failed; `label` names what it watches. */
function watchError(label: string, e: unknown): RegoError {
  return new RegoError("rego_compile_error", `${label} failed: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
}
