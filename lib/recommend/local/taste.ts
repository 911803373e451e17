/**
 * A user's taste as the local model reads it (docs/recommend.md, "Local picks"): each film of
 * theirs with a weight (ratings 7-10 pull towards, 1-4 push away, unrated watched films weigh
 * lightly, 👍 pulls, 👎 and dismissals push away), and the exclusions, in one statement scoped
 * to the verified user by its id (with the server's privileges: under row-level security the
 * same read of 5,000 films took three times as long on the embedded store).
 */
import type { Store } from "@/lib/platform/store/mod.ts";

/** One film of the user's with the weight it gives the profile. */
interface TasteFilm {
  catalogId: number;
  weight: number;
  /** 1-10 when rated. */
  rating: number | null;
  watched: boolean;
  thumb: 1 | -1 | 0;
}

/** What the model knows of a user. */
export interface Taste {
  films: TasteFilm[];
  watched: Set<number>;
  myList: number[];
  dismissed: Set<number>;
  /** Films with 👎. */
  thumbsDown: Set<number>;
  /** The saved "only what I can stream" switch, and whether services are chosen. */
  onlyMineSaved: boolean;
  hasServices: boolean;
}

/** The weight of a watched film by its rating (null: watched, not rated). */
function ratingWeight(rating: number | null): number {
  if (rating === null) return 0.3;
  if (rating >= 7) return 0.75 + (rating - 7) * 0.5; // 7: 0.75 … 10: 2.25
  if (rating <= 4) return -(0.75 + (4 - rating) * 0.5); // 4: -0.75 … 1: -2.25
  return 0.2; // 5-6: as good as unrated
}

/** The pull of a 👍, the push of a 👎 and of a dismissal. */
const THUMB_UP = 1.5;
const THUMB_DOWN = -1.5;
const DISMISSED = -1;

const TASTE_SQL = `select
    w.watched, w.ratings,
    (select coalesce(l.catalog_ids, '{}') from public.user_my_list l
      where l.user_id = $1::uuid) as my_list,
    (select coalesce(array_agg(d.catalog_id), '{}') from public.user_dismissed_movies d
      where d.user_id = $1::uuid) as dismissed,
    (select coalesce(array_agg(f.catalog_id * f.value), '{}') from public.recommend_feedback f
      where f.user_id = $1::uuid) as feedback,
    (select s.only_mine from public.user_services s where s.user_id = $1::uuid) as only_mine,
    (select cardinality(s.provider_ids) from public.user_services s
      where s.user_id = $1::uuid) as providers
  from (select coalesce(array_agg(w.catalog_id), '{}') as watched,
               coalesce(array_agg(coalesce(w.rating, 0)), '{}') as ratings
          from public.user_watched_movies w where w.user_id = $1::uuid) w`;

const ints = (v: unknown): number[] => ((v as unknown[] | null) ?? []).map(Number);

/** Reads the user's taste (one statement). */
export async function readTaste(store: Store, userId: string): Promise<Taste> {
  const [row] = await store.query(TASTE_SQL, [userId]);
  const watchedIds = ints(row.watched);
  const ratings = ints(row.ratings);
  const feedback = new Map<number, 1 | -1>();
  for (const signed of ints(row.feedback)) {
    feedback.set(Math.abs(signed), signed > 0 ? 1 : -1);
  }
  const dismissed = new Set(ints(row.dismissed));
  const films = new Map<number, TasteFilm>();
  watchedIds.forEach((id, i) => {
    const rating = ratings[i] > 0 ? ratings[i] : null;
    films.set(id, { catalogId: id, weight: ratingWeight(rating), rating, watched: true, thumb: 0 });
  });
  for (const [id, value] of feedback) {
    const film = films.get(id) ??
      { catalogId: id, weight: 0, rating: null, watched: false, thumb: 0 as const };
    film.thumb = value;
    film.weight += value > 0 ? THUMB_UP : THUMB_DOWN;
    films.set(id, film);
  }
  for (const id of dismissed) {
    if (films.has(id)) continue; // a 👎 already pushes; a watched film is not dismissed twice
    films.set(id, { catalogId: id, weight: DISMISSED, rating: null, watched: false, thumb: 0 });
  }
  return {
    films: [...films.values()].filter((f) => f.weight !== 0),
    watched: new Set(watchedIds),
    myList: ints(row.my_list),
    dismissed,
    thumbsDown: new Set([...feedback].filter(([, v]) => v < 0).map(([id]) => id)),
    onlyMineSaved: row.only_mine === true,
    hasServices: Number(row.providers ?? 0) > 0,
  };
}
