/** The store on a real PostgreSQL server (Supabase or any other) through postgres.js. */
import postgres from "postgres";
import { isUnavailable, STORE_TIMEOUT_MS, storeDeadline, storeUnavailable } from "./deadline.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Sql, Store } from "./types.ts";
import { isUserGone, userGone } from "./user_gone.ts";
import { USER_SETTINGS_SQL, userClaims } from "./user_settings.ts";

type Conn = postgres.Sql | postgres.TransactionSql;

/** Options of the PostgreSQL store. */
export interface PostgresStoreOptions {
  /** Pool size (10). */
  max?: number;
  /** How long a query or transaction may take before it fails with 503 (5 s). */
  timeoutMs?: number;
}

/** One pool of connections and its first query (see `warm`). */
interface Pool {
  sql: postgres.Sql;
  ready?: Promise<unknown>;
}

/** Connects to the PostgreSQL server at `url` (a pool of up to `max` connections). */
export function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Store {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  const connect = (): Pool => ({
    sql: postgres(url, {
      max: options.max ?? 10,
      onnotice: () => {},
      // Supabase's pooler (transaction mode) does not support prepared statements.
      prepare: !/pooler\.supabase\.com/.test(url),
      connect_timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
      connection: {
        application_name: "movies",
        // A live server cancels a statement just before the client gives up on it, so the
        // connection stays usable; an abandoned transaction is ended by the server.
        statement_timeout: Math.max(100, timeoutMs - 250),
        idle_in_transaction_session_timeout: timeoutMs * 2,
      },
    }),
  });
  let pool = connect();
  // A call the server did not answer at all (frozen, or the network dropped it) leaves its
  // connection stuck: replace the whole pool, so the next call dials afresh and the service
  // recovers by itself when the database is back.
  const reset = (stuck: Pool) => {
    if (pool !== stuck) return;
    pool = connect();
    stuck.sql.end({ timeout: 0 }).catch(() => {});
  };
  const bounded = <T>(work: (p: Pool) => Promise<T>): Promise<T> => {
    const current = pool;
    return storeDeadline(work(current), timeoutMs, () => reset(current)).catch((error) => {
      if (error instanceof Problem) throw error;
      if (isUserGone(error)) throw userGone(error);
      throw isUnavailable(error) ? storeUnavailable(error) : error;
    });
  };
  const stats = { queries: 0 };
  // LISTEN holds its connection for good: one of its own, apart from the pool (which a reset
  // replaces), made on the first listen.
  let listener: postgres.Sql | undefined;
  // postgres.js learns the array types on a connection's first query, and a query answered in
  // the same network read can be serialised before that lands (`malformed array literal`).
  // One query first, and every connection after it finds the array types known.
  const warm = (p: Pool) =>
    p.ready ??= p.sql.unsafe("select 1").catch((error) => {
      p.ready = undefined;
      throw error;
    });
  const run = async <T>(conn: Conn, text: string, params: unknown[] = []) => {
    stats.queries++;
    // A plain array (postgres.js returns a Result subclass), so both engines answer alike.
    return Array.from(await conn.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as T[];
  };
  const wrap = (tx: postgres.TransactionSql): Sql => ({
    query: (text, params) => run(tx, text, params),
    async exec(script) {
      stats.queries++;
      await tx.unsafe(script);
    },
  });
  return {
    kind: "postgres",
    stats,
    query: (text, params) =>
      bounded(async (p) => {
        await warm(p);
        return await run(p.sql, text, params);
      }),
    transaction: (fn) =>
      bounded(async (p) => {
        await warm(p);
        return (await p.sql.begin((tx) => fn(wrap(tx)))) as Awaited<ReturnType<typeof fn>>;
      }),
    asUser: (userId, fn) =>
      bounded(async (p) => {
        await warm(p);
        return (await p.sql.begin(async (tx) => {
          await tx.unsafe(USER_SETTINGS_SQL, [userClaims(userId)]);
          return await fn(wrap(tx));
        })) as Awaited<ReturnType<typeof fn>>;
      }),
    // Migrations may take longer than a request's bound; they run once, at start.
    async exec(script) {
      await pool.sql.unsafe(script);
    },
    async listen(channel, onMessage) {
      listener ??= postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 0 });
      const { unlisten } = await listener.listen(channel, onMessage);
      return unlisten;
    },
    async close() {
      await Promise.all([pool.sql.end({ timeout: 5 }), listener?.end({ timeout: 5 })]);
    },
  };
}
