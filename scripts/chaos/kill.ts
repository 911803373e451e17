/**
 * kill -9 during 50 writers: every acknowledged write is there after the restart, no index is
 * corrupt (amcheck), and the restarted server is healthy; plus the refusal of a second process
 * on one DATA_DIR.
 */
import { amcheck } from "@electric-sql/pglite/contrib/amcheck";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { freePort, spawnServer } from "@/tests/helpers/process.ts";
import { scriptDatabaseUrl, type StoreKind, type World } from "../load/world.ts";
import { record } from "./report.ts";

const WRITERS = 50;

// Every B-tree index of the service's schemas, checked with its heap (bt_index_check).
const CHECK_SQL = `select c.relname, public.bt_index_check(c.oid, true) is null as checked
  from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
  join pg_namespace n on n.oid = c.relnamespace
 where a.amname = 'btree' and n.nspname in ('public', 'auth') and c.relpersistence = 'p'`;

/** Runs `rounds` kills during writers on `world`'s store. */
export async function killDuringWriters(world: World, rounds: number): Promise<void> {
  const kind: StoreKind = world.kind;
  let base = 100_000_000 + Math.floor(Math.random() * 1000) * 1_000_000;
  for (let round = 1; round <= rounds; round++) {
    const acked: number[] = [];
    let stop = false;
    const url = world.server.url;
    const headers = {
      authorization: `Bearer ${world.tokens.list10}`,
      "content-type": "application/json",
    };
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let n = 0; !stop; n++) {
        const id = base + w * 1000 + n;
        try {
          const res = await fetch(`${url}/api/watched`, {
            method: "POST",
            headers,
            body: JSON.stringify({ catalogId: id }),
          });
          await res.body?.cancel();
          if (res.status === 200) acked.push(id);
        } catch {
          return; // the server died under this request: not acknowledged
        }
      }
    });
    // Long enough for the embedded store, which runs one statement at a time, to acknowledge some.
    await new Promise((r) => setTimeout(r, 3000 + Math.random() * 3000));
    world.server.kill("SIGKILL");
    stop = true;
    await world.server.exited;
    await Promise.all(writers);
    base += WRITERS * 1000;

    const server = await world.restart();
    const res = await fetch(`${server.url}/api/watched`, {
      headers: { authorization: headers.authorization },
    });
    const ids = new Set<number>(
      res.status === 200
        ? (await res.json()).movies.map((m: { catalogId: number }) => m.catalogId)
        : [],
    );
    const lost = acked.filter((id) => !ids.has(id));
    const health = (await fetch(`${server.url}/api/health`)).status;
    const indexes = await checkIndexes(world);
    record(
      `kill -9 during ${WRITERS} writers [${kind}] round ${round}`,
      res.status === 200 && lost.length === 0 && health === 200 && indexes.ok,
      `${acked.length} writes acknowledged, ${lost.length} lost (list read ${res.status}, ${ids.size} ids); ` +
        `restart health ${health}; ${indexes.detail}`,
    );
  }
}

async function checkIndexes(world: World): Promise<{ ok: boolean; detail: string }> {
  try {
    let rows: { relname: string; checked: boolean }[];
    if (world.kind === "postgres") {
      const sql = postgres(scriptDatabaseUrl()!, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe("create extension if not exists amcheck with schema public");
        rows = await sql.unsafe(CHECK_SQL);
      } finally {
        await sql.end();
      }
    } else {
      // The server holds the directory: stop it, check, start it again.
      world.server.kill("SIGTERM");
      await world.server.exited;
      const db = await PGlite.create({ dataDir: `${world.dir}/pg`, extensions: { amcheck } });
      try {
        await db.exec("create extension if not exists amcheck with schema public");
        rows = (await db.query<{ relname: string; checked: boolean }>(CHECK_SQL)).rows;
      } finally {
        await db.close();
        await world.restart();
      }
    }
    return { ok: rows.length > 0, detail: `amcheck: ${rows.length} indexes intact` };
  } catch (error) {
    return { ok: false, detail: `amcheck: ${error instanceof Error ? error.message : error}` };
  }
}

/** A second server on the embedded world's DATA_DIR must refuse to start with one line. */
export async function secondProcess(world: World): Promise<void> {
  // On a port of its own: the refusal must come from the directory, not from the port.
  await using second = await spawnServer({ ...world.env, PORT: String(freePort()) });
  const status = await second.exited;
  const printed = second.lines.filter((l) => l.trim());
  const ok = !second.url && status.code === 1 && printed.length === 1 &&
    printed[0].includes(`pid ${world.server.pid}`);
  const health = (await fetch(`${world.server.url}/api/health`)).status;
  record(
    "second process on one DATA_DIR",
    ok && health === 200,
    `exit ${status.code}, printed ${
      JSON.stringify(printed[0] ?? "")
    }; first still healthy: ${health}`,
  );
}
