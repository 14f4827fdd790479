// A minimal event emitter (node:events is not available in browsers, where the runtime also loads).
// A throwing listener does not break the poll loop: it is reported on the console instead.
type Listener = (...args: never[]) => void;

export class Listeners {
  private readonly listeners = new Map<string, Set<Listener>>();

  on(event: string, fn: (...args: never[]) => void): this {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn);
    return this;
  }

  off(event: string, fn: (...args: never[]) => void): this {
    this.listeners.get(event)?.delete(fn);
    return this;
  }

  protected emit(event: string, ...args: unknown[]): void {
    for (const fn of this.listeners.get(event) ?? []) {
      try {
        (fn as (...a: unknown[]) => void)(...args);
      } catch (e) {
        console.error(`regoc bundle: a "${event}" listener threw:`, e);
      }
    }
  }
}
