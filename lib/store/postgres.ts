/** The store on a real PostgreSQL server (Supabase or any other) through postgres.js. */
import postgres from "postgres";
import type { Sql, Store } from "./types.ts";
import { USER_SETTINGS_SQL, userClaims } from "./user_settings.ts";

type Conn = postgres.Sql | postgres.TransactionSql;

/** Connects to the PostgreSQL server at `url` (a pool of up to `max` connections). */
export function openPostgresStore(url: string, options: { max?: number } = {}): Store {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Supabase's pooler (transaction mode) does not support prepared statements.
    prepare: !/pooler\.supabase\.com/.test(url),
    connection: { application_name: "movies" },
  });
  const stats = { queries: 0 };
  // postgres.js learns the array types on a connection's first query, and a query answered in
  // the same network read can be serialised before that lands (`malformed array literal`).
  // One query first, and every connection after it finds the array types known.
  let ready: Promise<unknown> | undefined;
  const warm = () =>
    ready ??= sql.unsafe("select 1").catch((error) => {
      ready = undefined;
      throw error;
    });
  const run = async <T>(conn: Conn, text: string, params: unknown[] = []) => {
    await warm();
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
    query: (text, params) => run(sql, text, params),
    async transaction(fn) {
      await warm();
      return (await sql.begin((tx) => fn(wrap(tx)))) as Awaited<ReturnType<typeof fn>>;
    },
    async asUser(userId, fn) {
      await warm();
      return (await sql.begin(async (tx) => {
        await tx.unsafe(USER_SETTINGS_SQL, [userClaims(userId)]);
        return await fn(wrap(tx));
      })) as Awaited<ReturnType<typeof fn>>;
    },
    async exec(script) {
      await sql.unsafe(script);
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
