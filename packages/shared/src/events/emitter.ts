/** A small typed publish/subscribe. Handlers that throw are reported and do not stop the others. */
export class Emitter<Events extends object> {
  private readonly handlers = new Map<keyof Events, Set<(payload: never) => void>>();

  on<K extends keyof Events>(type: K, handler: (payload: Events[K]) => void): () => void {
    let set = this.handlers.get(type);
    if (!set) {
      set = new Set();
      this.handlers.set(type, set);
    }
    set.add(handler as (payload: never) => void);
    return () => set.delete(handler as (payload: never) => void);
  }

  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    for (const handler of [...(this.handlers.get(type) ?? [])]) {
      try {
        (handler as (payload: Events[K]) => void)(payload);
      } catch (error) {
        console.error(`handler for "${String(type)}" failed`, error);
      }
    }
  }

  clear(): void {
    this.handlers.clear();
  }
}
