/**
 * The world `deno task load` and `deno task chaos` run against: the real server (main.ts) in a
 * child process on the embedded store or a PostgreSQL, with 1,000 movies, two users whose
 * watched lists hold 10 and 1,000 of them, and fake movie database and AI servers in this
 * process. The store is seeded before the server opens it (the embedded one admits one process).
 */
import { hashPassword } from "../../lib/identity/auth/passwords.ts";
import { insertUser } from "../../lib/identity/auth/users.ts";
import { migrate, readMigrations } from "../../lib/platform/store/migrate.ts";
import type { Store } from "../../lib/platform/store/mod.ts";
import { openPgliteStore } from "../../lib/platform/store/pglite.ts";
import { openPostgresStore } from "../../lib/platform/store/postgres.ts";
import { type FakeAi, providersEnv, startFakeAi } from "../../tests/helpers/fake_ai.ts";
import { type FakeTmdb, startFakeTmdb, tmdbEnv } from "../../tests/helpers/fake_tmdb.ts";
import { freePort, type ServerProcess, spawnServer } from "../../tests/helpers/process.ts";
import {
  markWatched,
  modelLike,
  numberedMovies,
  POOL,
  seedMovies,
} from "../../tests/helpers/recommend_world.ts";

/** Which store a world runs on. */
export type StoreKind = "embedded" | "postgres";

/** A running world. */
export interface World extends AsyncDisposable {
  kind: StoreKind;
  dir: string;
  env: Record<string, string>;
  server: ServerProcess;
  tmdb: FakeTmdb;
  ai: FakeAi;
  adminToken: string;
  /** Access tokens of the users with 10 and 1,000 watched movies. */
  tokens: { list10: string; list1000: string };
  /** Access tokens of the `users` extra users (10 watched movies each). */
  userTokens: string[];
  /** Opens the store directly (the server must be stopped first when embedded). */
  openStore(): Promise<Store>;
  /** Starts the server again on the same store (after a kill). */
  restart(): Promise<ServerProcess>;
}

const PASSWORD = "load and chaos passphrase 19";
// The world's movies keep the titles and years of Film 1..1000 (the fake AI names them) under
// ids no test uses, and are deleted with the world: a PostgreSQL may be a shared test database.
const ID_OFFSET = 900_000_000;
const ids = (n: number) => Array.from({ length: n }, (_, i) => ID_OFFSET + i + 1);

/** The URL of the PostgreSQL the scripts use, if any. */
export function scriptDatabaseUrl(): string | undefined {
  return Deno.env.get("LOAD_DATABASE_URL") || Deno.env.get("TEST_DATABASE_URL") || undefined;
}

let signIns = 0;

/**
 * Signs a user in through the server's /auth/v1 and returns the access token. Each sign-in
 * comes from its own address (CLIENT_IP_HEADER), as real users do, so the per-address
 * sign-in limit does not stop the seeding of many users.
 */
async function signIn(url: string, email: string): Promise<string> {
  const n = ++signIns;
  const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-load-client": `10.19.${(n >> 8) & 255}.${n & 255}`,
    },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return (await res.json()).access_token;
}

interface Emails {
  list10: string;
  list1000: string;
  extra: string[];
}

/** Seeds a store: migrations, 1,000 movies, two users (10 and 1,000 watched) and `extra` more. */
async function seed(store: Store, extra: number): Promise<Emails> {
  await migrate(store, await readMigrations());
  await seedMovies(store, numberedMovies(1, 1000).map((m) => ({ ...m, id: m.id + ID_OFFSET })));
  const hash = await hashPassword(PASSWORD);
  const emails: Record<string, string> = {};
  for (const size of [10, 1000]) {
    const email = `load-${size}-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const { id } = await insertUser(store, { email, passwordHash: hash }, { now: Date.now() });
    await markWatched(store, id, ids(size));
    emails[`list${size}`] = email;
  }
  const others: string[] = [];
  for (let i = 0; i < extra; i++) {
    const email = `load-u${i}-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const { id } = await insertUser(store, { email, passwordHash: hash }, { now: Date.now() });
    await markWatched(store, id, ids(10));
    others.push(email);
  }
  return { list10: emails.list10, list1000: emails.list1000, extra: others };
}

/** Starts a world on `kind`; dispose it with `await using`. */
export async function startWorld(
  kind: StoreKind,
  options: {
    env?: Record<string, string>;
    users?: number;
    /** Drain the server's log unread once it listens (`deno task load`; see spawnServer). */
    drainLog?: boolean;
  } = {},
): Promise<World> {
  const databaseUrl = scriptDatabaseUrl();
  if (kind === "postgres" && !databaseUrl) throw new Error("LOAD_DATABASE_URL is not set");
  const dir = await Deno.makeTempDir({ prefix: `movies-${kind}-` });
  const openStore = async (): Promise<Store> =>
    kind === "embedded"
      ? await openPgliteStore({ dataDir: `${dir}/pg` })
      : openPostgresStore(databaseUrl!, { max: 4 });
  const store = await openStore();
  let emails: Emails;
  try {
    emails = await seed(store, options.users ?? 0);
  } finally {
    await store.close();
  }
  const tmdb = await startFakeTmdb();
  const ai = startFakeAi({ fallback: modelLike(POOL) });
  const adminToken = crypto.randomUUID();
  const env: Record<string, string> = {
    DATA_DIR: dir,
    ...tmdbEnv(tmdb),
    ...providersEnv([{ name: "fake", baseUrl: ai.baseUrl }]),
    ADMIN_TOKEN: adminToken,
    CLIENT_IP_HEADER: "x-load-client",
    // One port for every start: the tokens' issuer is the site URL, which names the port.
    PORT: String(freePort()),
    ...(kind === "postgres" ? { DATABASE_URL: databaseUrl! } : {}),
    ...options.env,
  };
  // LOAD_DENO_FLAGS passes flags to the server's `deno run` (e.g. `--cpu-prof --cpu-prof-dir=…`
  // to see what a run spends its time on).
  const denoFlags = Deno.env.get("LOAD_DENO_FLAGS")?.split(" ").filter(Boolean);
  const start = async () => {
    const server = await spawnServer(env, { drainLog: options.drainLog, denoFlags });
    if (!server.url) throw new Error(`server did not start:\n${server.lines.join("\n")}`);
    return server;
  };
  const world: World = {
    kind,
    dir,
    env,
    server: await start(),
    tmdb,
    ai,
    adminToken,
    tokens: { list10: "", list1000: "" },
    userTokens: [],
    openStore,
    async restart() {
      world.server = await start();
      return world.server;
    },
    async [Symbol.asyncDispose]() {
      // SIGTERM first, so a profiled server (LOAD_DENO_FLAGS) writes its profile on the way out.
      world.server.kill(denoFlags?.length ? "SIGTERM" : "SIGKILL");
      const late = setTimeout(() => world.server.kill("SIGKILL"), 20_000);
      await world.server.exited;
      clearTimeout(late);
      await tmdb.close();
      await ai.close();
      if (kind === "postgres") {
        const pg = await openStore();
        const all = [emails.list10, emails.list1000, ...emails.extra];
        await pg.query("delete from auth.users where email = any($1::text[])", [all])
          .catch(() => {});
        await pg.query("delete from public.movies where catalog_id = any($1::int[])", [ids(1000)])
          .catch(() => {});
        await pg.close();
      }
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
  world.tokens = {
    list10: await signIn(world.server.url, emails.list10),
    list1000: await signIn(world.server.url, emails.list1000),
  };
  for (let i = 0; i < emails.extra.length; i += 8) {
    const batch = emails.extra.slice(i, i + 8).map((email) => signIn(world.server.url, email));
    world.userTokens.push(...await Promise.all(batch));
  }
  return world;
}
