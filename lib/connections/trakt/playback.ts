/**
 * What the user is in the middle of (docs/trakt.md, "Writes and scrobbles"): the playback points
 * their players paused (`GET /sync/playback/movies`, removed one by one) and the film they watch
 * now (`GET /users/me/watching`), read as the user.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { TRAKT_MOVIE_COLUMNS, traktMovie, type TraktMovieRow } from "./movie_object.ts";

const MS_ISO = (col: string) =>
  `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The playback points, latest pause first: `[{"progress","paused_at","id","type","movie"}]`. */
export async function readPlayback(tx: Sql): Promise<Record<string, unknown>[]> {
  const rows = await tx.query<TraktMovieRow & { id: number; progress: number; paused: string }>(
    `select p.id, p.progress, ${MS_ISO("p.paused_at")} as paused, p.catalog_id,
            ${TRAKT_MOVIE_COLUMNS}
       from public.trakt_playback p left join public.movies m on m.catalog_id = p.catalog_id
      where p.user_id = (select auth.uid())
      order by p.paused_at desc, p.id desc`,
  );
  return rows.map((r) => ({
    progress: Number(r.progress),
    paused_at: r.paused,
    id: Number(r.id),
    type: "movie",
    movie: traktMovie(r),
  }));
}

/** Removes the point `id`; false when the user has none by that id. */
export async function deletePlayback(tx: Sql, id: number): Promise<boolean> {
  const rows = await tx.query(
    `delete from public.trakt_playback where user_id = (select auth.uid()) and id = $1
      returning id`,
    [id],
  );
  return rows.length > 0;
}

/** The film watched now (a scrobble or check-in not yet expired), with its progress; or null. */
export interface Watching {
  expires_at: string;
  started_at: string;
  action: "scrobble" | "checkin";
  type: "movie";
  movie: ReturnType<typeof traktMovie>;
  /** How far along it is now, 0-100, from its start and runtime (the home page's bar). */
  progress: number;
}

/** The user's scrobble or check-in in progress at `now`, or null. */
export async function readWatching(tx: Sql, now: number): Promise<Watching | null> {
  const [row] = await tx.query<
    TraktMovieRow & { action: "scrobble" | "checkin"; started: string; expires: string }
  >(
    `select w.catalog_id, w.action, ${MS_ISO("w.started_at")} as started,
            ${MS_ISO("w.expires_at")} as expires, ${TRAKT_MOVIE_COLUMNS}
       from public.trakt_watching w left join public.movies m on m.catalog_id = w.catalog_id
      where w.user_id = (select auth.uid()) and w.catalog_id is not null
        and w.expires_at > $1::timestamptz`,
    [new Date(now).toISOString()],
  );
  if (!row) return null;
  const start = Date.parse(row.started);
  const span = Date.parse(row.expires) - start;
  const progress = span > 0 ? Math.min(100, Math.max(0, ((now - start) / span) * 100)) : 0;
  return {
    expires_at: row.expires,
    started_at: row.started,
    action: row.action,
    type: "movie",
    movie: traktMovie(row),
    progress: Math.round(progress * 10) / 10,
  };
}
