/**
 * Waiting for an app's background work (a list write's details prefetch, a lock renewal) by
 * what it does, not by time: every promise the wrapped KV, store and fetch hand out is kept, and
 * `settled()` returns once none is pending and a macrotask turn has drained the microtasks that
 * could start another.
 */
import type { Clock, FakeClock } from "@/lib/core/clock.ts";
import { type TestApp, testApp, type TestAppOptions } from "./app.ts";
import { testStore } from "./store.ts";

/** Keeps every pending promise that wrapped objects' methods return. */
export class PendingWork {
  #pending = new Set<Promise<unknown>>();

  /** `target` with each method's returned promise kept (and KV's atomic operations wrapped too). */
  wrap<T extends object>(target: T): T {
    const wrapped: T = new Proxy(target, {
      get: (o, p) => {
        const v = Reflect.get(o, p, o);
        if (typeof v !== "function") return v;
        return (...args: unknown[]) => {
          const out = v.apply(o, args);
          if (p === "atomic") return this.wrap(out);
          // An atomic operation's builder methods return the operation: keep the wrapper.
          if (out === o) return wrapped;
          return out instanceof Promise ? this.#keep(out) : out;
        };
      },
    });
    return wrapped;
  }

  /**
   * A fetch whose calls are kept until they answer, and whose answers' bodies are kept while
   * they are read: fetch resolves with the headers, and a body read (`json()`) that waits on
   * the network for more than a macrotask would otherwise look like nothing pending.
   */
  fetch(inner: typeof fetch = globalThis.fetch): typeof fetch {
    return (input, init) => this.#keep(inner(input, init).then((response) => this.wrap(response)));
  }

  /** Resolves once nothing kept is pending, across a full turn of the event loop. */
  async settled(): Promise<void> {
    for (;;) {
      while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
      await new Promise((r) => setTimeout(r, 0));
      if (this.#pending.size === 0) return;
    }
  }

  #keep<T>(promise: Promise<T>): Promise<T> {
    this.#pending.add(promise);
    promise.finally(() => this.#pending.delete(promise)).catch(() => {});
    return promise;
  }
}

/**
 * A test app whose store, KV and outgoing fetches are watched, with `settled()` to wait on them;
 * its clock is typed as testApp's is (a FakeClock unless another is passed).
 */
export async function settledApp<C extends Clock = FakeClock>(
  options: Omit<TestAppOptions<C>, "store" | "kv" | "fetch"> = {},
): Promise<TestApp<C> & { settled(): Promise<void> }> {
  const work = new PendingWork();
  const store = await testStore(options.engine);
  const kv = await Deno.openKv(":memory:");
  const t = await testApp({
    ...options,
    store: work.wrap(store),
    kv: work.wrap(kv),
    fetch: work.fetch(),
  });
  const disposeApp = t[Symbol.asyncDispose].bind(t);
  return Object.assign(t, {
    settled: () => work.settled(),
    async [Symbol.asyncDispose]() {
      await work.settled();
      await disposeApp();
      kv.close();
      await store[Symbol.asyncDispose]();
    },
  });
}
