/**
 * Two real server processes as two machines behind a balancer: each its own data directory
 * and KV path (a file each under COORDINATION=kv; none is opened under postgres), both on one
 * fresh PostgreSQL database, one signing key and one SITE_URL (so a token works on either), a
 * fake TMDB and a fake AI provider on 127.0.0.1. What they share is only what COORDINATION puts
 * in PostgreSQL (docs/coordination.md).
 */
import { signAccessToken } from "@/lib/identity/auth/access_token.ts";
import { generatePrivateJwk, loadSigningKey } from "@/lib/identity/auth/signing_key.ts";
import { systemClock } from "@/lib/core/clock.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { type FakeAi, providersEnv, startFakeAi } from "./fake_ai.ts";
import { type FakeTmdb, startFakeTmdb, tmdbEnv } from "./fake_tmdb.ts";
import { type ServerProcess, spawnServer } from "./process.ts";
import {
  markWatched,
  modelLike,
  MY_LIST,
  POOL,
  seedMovies,
  setMyList,
  WATCHED,
} from "./recommend_world.ts";
import { withDatabase } from "./store_templates.ts";

/** The site both instances claim to be: the issuer of the tokens either accepts. */
const SITE_URL = "http://movies.test";

/** A user of both instances, with a token either accepts. */
export interface SharedUser {
  id: string;
  headers: Record<string, string>;
}

/** Two running instances, their fakes and their shared database. */
export interface TwoInstances extends AsyncDisposable {
  a: ServerProcess;
  b: ServerProcess;
  /** Both origins, in order: request i goes to `origins[i % 2]`. */
  origins: [string, string];
  tmdb: FakeTmdb;
  ai: FakeAi;
  /** A store on the instances' database (for seeding). */
  store: Store;
  /** A user who has watched WATCHED and keeps MY_LIST, over the movies of POOL. */
  addUser(): Promise<SharedUser>;
}

/** Creates a database of its own on TEST_DATABASE_URL's server; returns its URL and a drop. */
async function freshDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  // Creating a database from a template waits for the server's checkpoint: on a busy server
  // longer than a request's 5 s deadline.
  const admin = openPostgresStore(serverUrl, { max: 1, timeoutMs: 120_000 });
  const name = `movies_two_${crypto.randomUUID().slice(0, 8)}`;
  await admin.query(`create database ${name}`);
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

/**
 * Starts a fresh database, the fakes and two servers with `coordination` (COORDINATION) and a
 * KV path each; `await using` it. Startup waits are generous: the machine may be loaded.
 */
export async function startTwoInstances(
  serverUrl: string,
  coordination: "postgres" | "kv",
): Promise<TwoInstances> {
  const cleanups: (() => PromiseLike<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
  };
  try {
    const db = await freshDatabase(serverUrl);
    cleanups.push(db.drop);
    const tmdb = await startFakeTmdb();
    cleanups.push(() => tmdb.close());
    const ai = startFakeAi({ fallback: modelLike(POOL) });
    cleanups.push(() => ai.close());
    const dir = await Deno.makeTempDir({ prefix: "movies-two-instances-" });
    cleanups.push(() => Deno.remove(dir, { recursive: true }));
    const jwk = JSON.stringify(await generatePrivateJwk());
    const env = {
      ...tmdbEnv(tmdb),
      ...providersEnv([{ name: "fake", baseUrl: ai.baseUrl }]),
      DATABASE_URL: db.url,
      COORDINATION: coordination,
      AUTH_SIGNING_KEY: jwk,
      SITE_URL,
    };
    const spawn = async (name: string) => {
      const server = await spawnServer(
        { ...env, DATA_DIR: `${dir}/${name}`, DENO_KV_PATH: `${dir}/${name}/kv.sqlite3` },
        { timeoutMs: 300_000 },
      );
      cleanups.push(() => server[Symbol.asyncDispose]());
      if (!server.url) throw new Error(`instance ${name} exited:\n${server.lines.join("\n")}`);
      return server;
    };
    // One after the other: the first applies the migrations to the fresh database.
    await Deno.mkdir(`${dir}/a`);
    await Deno.mkdir(`${dir}/b`);
    const a = await spawn("a");
    const b = await spawn("b");
    const store = openPostgresStore(db.url, { max: 2 });
    cleanups.push(() => store.close());
    await seedMovies(store, POOL);
    const key = await loadSigningKey({ jwkJson: jwk, dataDir: dir });
    const addUser = async (): Promise<SharedUser> => {
      const id = crypto.randomUUID();
      const email = `two-${id.slice(0, 8)}@example.test`;
      await store.query(
        `insert into auth.users (id, aud, role, email, created_at, updated_at)
         values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
        [id, email],
      );
      await markWatched(store, id, WATCHED);
      await setMyList(store, id, MY_LIST);
      const { token } = await signAccessToken(key, { id, email }, {
        issuer: `${SITE_URL}/auth/v1`,
        clock: systemClock,
      });
      return { id, headers: { authorization: `Bearer ${token}` } };
    };
    return {
      a,
      b,
      origins: [a.url, b.url],
      tmdb,
      ai,
      store,
      addUser,
      [Symbol.asyncDispose]: close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
