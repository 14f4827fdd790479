// A minimal event emitter (node:events is not available in browsers, where the runtime also loads).
// A throwing listener does not break the poll loop: it is reported on the console instead.
// `E` maps each event's name to its listeners' arguments.
type Listener = (...args: never[]) => void;

export class Listeners<E extends Record<string, unknown[]>> {
  private readonly listeners = new Map<string, Set<Listener>>();

  on<K extends keyof E & string>(event: K, fn: (...args: E[K]) => void): this {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn as unknown as Listener);
    return this;
  }

  off<K extends keyof E & string>(event: K, fn: (...args: E[K]) => void): this {
    this.listeners.get(event)?.delete(fn as unknown as Listener);
    return this;
  }

  protected emit<K extends keyof E & string>(event: K, ...args: E[K]): void {
    for (const fn of this.listeners.get(event) ?? []) {
      try {
        (fn as (...a: unknown[]) => void)(...args);
      } catch (e) {
        console.error(`regoc bundle: a "${event}" listener threw:`, e);
      }
    }
  }
}
