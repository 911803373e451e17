/**
 * Scrobbles, check-ins and playback points (docs/trakt.md, "Writes and scrobbles"), each run as
 * the user inside the caller's transaction. A start marks the film as watching now until its
 * runtime has passed (counted back from the progress); a pause keeps a playback point; a stop at
 * 80 % or more logs one viewing (source `scrobble`) unless the same film was scrobbled within
 * its runtime (409), and clears the point; a stop under 80 % is a pause. A check-in is watching
 * now from its start; its viewing (source `checkin`) is logged once its runtime has passed, by
 * the user's next scrobble, check-in, watching or playback call (`settleCheckin`).
 */
import { Problem } from "@/lib/core/problem.ts";
import { logViewing } from "@/lib/library/diary/mod.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** A stop at or past this progress logs a viewing. */
const SCROBBLE_AT = 80;

/** The runtime assumed for a film whose details have none. */
const DEFAULT_RUNTIME_MIN = 120;

const MINUTE = 60_000;

interface WatchingRow {
  id: number;
  catalog_id: number | null;
  action: "scrobble" | "checkin" | null;
  progress: number;
  started_at: string | null;
  expires_at: string | null;
  logged_catalog_id: number | null;
  logged_at: string | null;
  logged_until: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (value: string | Date | null) => value === null ? NaN : new Date(value).getTime();

async function runtimeMs(tx: Sql, catalogId: number): Promise<number> {
  const [row] = await tx.query<{ runtime: number | null }>(
    `select runtime from public.movies where catalog_id = $1`,
    [catalogId],
  );
  const minutes = Number(row?.runtime ?? 0);
  return (minutes > 0 ? minutes : DEFAULT_RUNTIME_MIN) * MINUTE;
}

async function watchingRow(tx: Sql): Promise<WatchingRow | null> {
  const [row] = await tx.query<WatchingRow>(
    `select id, catalog_id, action, progress, started_at, expires_at, logged_catalog_id,
            logged_at, logged_until
       from public.trakt_watching where user_id = (select auth.uid()) for update`,
  );
  return row ?? null;
}

async function setWatching(
  tx: Sql,
  now: { catalogId: number; action: "scrobble" | "checkin"; progress: number },
  times: { startedAt: string; expiresAt: string },
): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `insert into public.trakt_watching as t
        (user_id, catalog_id, action, progress, started_at, expires_at)
      values ((select auth.uid()), $1, $2, $3, $4, $5)
      on conflict (user_id) do update set catalog_id = excluded.catalog_id,
        action = excluded.action, progress = excluded.progress,
        started_at = excluded.started_at, expires_at = excluded.expires_at
      returning t.id`,
    [now.catalogId, now.action, now.progress, times.startedAt, times.expiresAt],
  );
  return Number(row.id);
}

async function clearWatching(tx: Sql): Promise<void> {
  await tx.query(
    `update public.trakt_watching set catalog_id = null, action = null, progress = 0,
        started_at = null, expires_at = null
      where user_id = (select auth.uid())`,
  );
}

async function removesFromMyList(tx: Sql): Promise<boolean> {
  const [row] = await tx.query<{ remove: boolean }>(
    `select remove_from_my_list as remove from public.user_connections
      where user_id = (select auth.uid())`,
  );
  return row?.remove ?? true;
}

async function logAs(
  tx: Sql,
  viewing: { catalogId: number; at: number; source: "scrobble" | "checkin" },
  options: { userId: string; now: number },
): Promise<void> {
  await logViewing(tx, {
    catalogId: viewing.catalogId,
    watchedOn: iso(viewing.at).slice(0, 10),
    source: viewing.source,
  }, {
    userId: options.userId,
    loggedAt: iso(options.now),
    removeFromMyList: await removesFromMyList(tx),
  });
}

/** Logs a check-in whose runtime has passed and clears it; whether one was logged. */
export async function settleCheckin(
  tx: Sql,
  options: { userId: string; now: number },
): Promise<boolean> {
  const row = await watchingRow(tx);
  if (row?.action !== "checkin" || row.catalog_id === null) return false;
  if (ms(row.expires_at) > options.now) return false;
  await logAs(tx, {
    catalogId: row.catalog_id,
    at: ms(row.started_at),
    source: "checkin",
  }, options);
  await clearWatching(tx);
  return true;
}

async function keepPoint(tx: Sql, point: { catalogId: number; progress: number; at: string }) {
  const [row] = await tx.query<{ id: number }>(
    `insert into public.trakt_playback as p (user_id, catalog_id, progress, paused_at)
      values ((select auth.uid()), $1, $2, $3)
      on conflict (user_id, catalog_id) do update set progress = excluded.progress,
        paused_at = excluded.paused_at
      returning p.id`,
    [point.catalogId, point.progress, point.at],
  );
  return Number(row.id);
}

/** A scrobble's answer before its movie object: Trakt's `id`, `action` and `progress`. */
interface Scrobbled {
  id: number;
  action: "start" | "pause" | "scrobble";
  progress: number;
}

/** What a scrobble call names: the movie, how far, and which call. */
export interface ScrobbleCall {
  catalogId: number;
  progress: number;
  call: "start" | "pause" | "stop";
}

/** One scrobble call; a stop of a film scrobbled within its runtime is 409 and logs nothing. */
export async function scrobble(
  tx: Sql,
  call: ScrobbleCall,
  options: { userId: string; now: number },
): Promise<Scrobbled> {
  const { catalogId, progress, call: kind } = call;
  const { now } = options;
  await settleCheckin(tx, options);
  const runtime = await runtimeMs(tx, catalogId);
  if (kind === "start") {
    const startedAt = now - runtime * progress / 100;
    const id = await setWatching(tx, { catalogId, action: "scrobble", progress }, {
      startedAt: iso(startedAt),
      expiresAt: iso(startedAt + runtime),
    });
    return { id, action: "start", progress };
  }
  const row = await watchingRow(tx);
  const watchingThis = row?.catalog_id === catalogId && row.action === "scrobble";
  if (kind === "pause" || progress < SCROBBLE_AT) {
    if (watchingThis) await clearWatching(tx);
    const id = await keepPoint(tx, { catalogId, progress, at: iso(now) });
    return { id, action: "pause", progress };
  }
  if (row?.logged_catalog_id === catalogId && ms(row.logged_until) > now) {
    throw new Problem(409, "already_scrobbled", "This movie was scrobbled within its runtime.", {
      extensions: { watched_at: iso(ms(row.logged_at)), expires_at: iso(ms(row.logged_until)) },
    });
  }
  await logAs(tx, { catalogId, at: now, source: "scrobble" }, options);
  await tx.query(
    `delete from public.trakt_playback where user_id = (select auth.uid()) and catalog_id = $1`,
    [catalogId],
  );
  if (watchingThis) await clearWatching(tx);
  const id = await setLogged(tx, { catalogId, at: now, until: now + runtime });
  return { id, action: "scrobble", progress };
}

async function setLogged(tx: Sql, logged: { catalogId: number; at: number; until: number }) {
  const [row] = await tx.query<{ id: number }>(
    `insert into public.trakt_watching as t
        (user_id, logged_catalog_id, logged_at, logged_until)
      values ((select auth.uid()), $1, $2, $3)
      on conflict (user_id) do update set logged_catalog_id = excluded.logged_catalog_id,
        logged_at = excluded.logged_at, logged_until = excluded.logged_until
      returning t.id`,
    [logged.catalogId, iso(logged.at), iso(logged.until)],
  );
  return Number(row.id);
}

/** A check-in started now: its id and times; 409 with `expires_at` while one is running. */
export async function checkin(
  tx: Sql,
  catalogId: number,
  options: { userId: string; now: number },
): Promise<{ id: number; watchedAt: string; expiresAt: string }> {
  await settleCheckin(tx, options);
  const row = await watchingRow(tx);
  if (row?.action === "checkin" && ms(row.expires_at) > options.now) {
    throw new Problem(409, "checkin_in_progress", "A check-in is already in progress.", {
      extensions: { expires_at: iso(ms(row.expires_at)) },
    });
  }
  const runtime = await runtimeMs(tx, catalogId);
  const times = { startedAt: iso(options.now), expiresAt: iso(options.now + runtime) };
  const id = await setWatching(tx, { catalogId, action: "checkin", progress: 0 }, times);
  return { id, watchedAt: times.startedAt, expiresAt: times.expiresAt };
}

/** Cancels a running check-in (nothing logged); nothing when there is none. */
export async function cancelCheckin(
  tx: Sql,
  options: { userId: string; now: number },
): Promise<void> {
  await settleCheckin(tx, options);
  await tx.query(
    `update public.trakt_watching set catalog_id = null, action = null, progress = 0,
        started_at = null, expires_at = null
      where user_id = (select auth.uid()) and action = 'checkin'`,
  );
}
