// A bounded, process-wide cache for what builtins compile from their operands (regex patterns,
// globs, time layouts, verification keys, JSON schemas): policies call them with a few distinct
// texts, and compiling is the expensive part. A failure is kept as well, so an invalid pattern
// fails again at once with the same error. Eviction is "second chance" (CLOCK): a hit only marks
// the entry, and a full cache evicts the oldest entry not used since it was last passed over.

interface Entry<V> {
  value?: V;
  error?: unknown;
  failed: boolean;
  used: boolean;
}

export class LruCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly limit: number) {}

  /** The value for `key`, built (or its failure rethrown) once while the entry stays. */
  get(key: string, build: () => V): V {
    let e = this.entries.get(key);
    if (e !== undefined) e.used = true;
    else {
      try {
        e = { value: build(), failed: false, used: false };
      } catch (error) {
        e = { error, failed: true, used: false };
      }
      this.evictOne();
      this.entries.set(key, e);
    }
    if (e.failed) throw e.error;
    return e.value!;
  }

  /** Makes room for one entry: used entries get a second chance at the young end. */
  private evictOne(): void {
    while (this.entries.size >= this.limit) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      if (oldest.used) {
        oldest.used = false;
        this.entries.set(oldestKey, oldest);
      }
    }
  }

  /** Forgets `key` (a value that turned out bad after it was cached, e.g. a rejected promise). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** The keys held, oldest first. */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  clear(): void {
    this.entries.clear();
  }
}
