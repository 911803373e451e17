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
}

/** The claims set for a user's transaction, shaped as Supabase's PostgREST sets them. */
export function userClaims(userId: string): string {
  return JSON.stringify({ sub: userId, role: "authenticated", aud: "authenticated" });
}

/**
 * Sets the user's claims and switches to role `authenticated` for the rest of the transaction,
 * in one round trip (`set_config('role', ..., true)` is `set local role`, as PostgREST does it).
 */
export const USER_SETTINGS_SQL =
  "select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)";

/** Opens the store the configuration names: postgres.js for a URL, else PGlite in `dataDir`. */
export async function openStore(
  options: { databaseUrl?: string; dataDir?: string },
): Promise<Store> {
  if (options.databaseUrl) {
    const { openPostgresStore } = await import("./postgres.ts");
    return openPostgresStore(options.databaseUrl);
  }
  const { openPgliteStore } = await import("./pglite.ts");
  return await openPgliteStore(options.dataDir ? { dataDir: options.dataDir } : {});
}
