/**
 * One store interface over two real Postgres engines: embedded PGlite and postgres.js.
 * Services write plain SQL with `$1` parameters against `Sql`; `asUser` runs a user's
 * operations in a transaction that sets Supabase's role and JWT claims, so row-level
 * security and `auth.uid()` behave the same on Supabase and on the embedded engine.
 */

/** Something that runs one parameterised SQL statement. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs several statements at once, without parameters (migrations). */
  exec(script: string): Promise<void>;
}

/** The data store. `query` runs with the server's own (owner) privileges. */
export interface Store extends Sql {
  /** `embedded` (PGlite) or `postgres` (postgres.js). */
  readonly kind: "embedded" | "postgres";
  /** Statements run so far, counted so tests and benchmarks can check "one query per list". */
  readonly stats: { queries: number };
  /** Runs `fn` in a transaction with the server's privileges. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Runs `fn` in a transaction as role `authenticated` with `request.jwt.claims` naming the user. */
  asUser<T>(userId: string, fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Closes the connections. */
  close(): Promise<void>;
  /**
   * PostgreSQL only: calls `onMessage` with the payload of every NOTIFY on `channel`, from any
   * connection to the database (other instances included), on one connection of its own that
   * reconnects by itself; resolves once listening, to the function that stops. Movie nights'
   * events use it (docs/nights.md).
   */
  readonly listen?: (
    channel: string,
    onMessage: (payload: string) => void,
  ) => Promise<() => Promise<void>>;
  /**
   * The same store for background work (history imports): on the embedded store its calls wait
   * behind every request's (lib/platform/store/lanes.ts). Absent where one queue does not serve both
   * (PostgreSQL's pool); `backgroundStore` picks.
   */
  readonly background?: Store;
}

/** The store background work should use: `store.background` where there is one, else `store`. */
export function backgroundStore(store: Store): Store {
  return store.background ?? store;
}
