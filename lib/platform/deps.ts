/** What the app is built from: every service gets its dependencies from here, never from globals. */
import type { Kv } from "./kv/kv.ts";
import type { Clock } from "../core/clock.ts";
import type { Config } from "../core/config.ts";
import type { HeldLeases } from "./kv/lock.ts";
import type { Logger } from "../core/log.ts";
import type { Store } from "./store/mod.ts";

/** The dependencies of the app; tests build their own (temporary store and KV, fake clock and fetch). */
export interface AppDeps {
  config: Config;
  store: Store;
  kv: Kv;
  clock: Clock;
  /** The fetch every outbound call goes through (the external movie database, AI, captcha, Supabase). */
  fetch: typeof fetch;
  log: Logger;
  /** Where the process counts the KV leases it holds (main.ts releases them on SIGTERM). */
  leases?: HeldLeases;
}
