/**
 * The rated part of a taste profile (docs/entries.md): loved (8-10), liked (5-7) and
 * disliked (1-4) titles, each section capped so the prompt stays bounded whatever the
 * history's length. A history with no rating adds nothing, so its prompt is unchanged.
 */
import type { Sql } from "../platform/store/mod.ts";

/** A rated movie as the prompt names it. */
interface RatedMovie {
  title: string;
  year: number;
  rating: number;
}

/** The rated titles of a history, each section in the order the prompt lists them. */
export interface RatedTaste {
  loved: RatedMovie[];
  liked: RatedMovie[];
  disliked: RatedMovie[];
}

/** Titles per section: loved, liked, disliked. */
export const RATED_TITLES = { loved: 15, liked: 10, disliked: 10 } as const;

const TITLE_CHARS = 100;

// One statement: each rated, titled movie goes to its section; loved and liked list the highest
// rated first, disliked the lowest (the clearest signal); within a rating, the most recently
// watched first (the watch date, else when it was added).
const RATED_SQL = `select title, year, rating, section from (
    select m.title, m.year, w.rating,
           case when w.rating >= 8 then 'loved' when w.rating >= 5 then 'liked'
                else 'disliked' end as section,
           row_number() over (
             partition by (w.rating >= 8), (w.rating >= 5)
             order by case when w.rating >= 5 then -w.rating else w.rating end,
                      coalesce(w.watched_on, (w.created_at at time zone 'UTC')::date) desc,
                      w.created_at desc, w.catalog_id desc
           ) as n
      from public.user_watched_movies w
      join public.movies m on m.catalog_id = w.catalog_id
     where w.user_id = $1 and w.rating is not null and m.title <> ''
  ) r
  where n <= case section when 'loved' then ${RATED_TITLES.loved}
                          when 'liked' then ${RATED_TITLES.liked}
                          else ${RATED_TITLES.disliked} end
  order by section, n`;

/** Reads the rated sections of a user's history inside the user's transaction `tx`. */
export async function loadRated(tx: Sql, userId: string): Promise<RatedTaste> {
  const rows = await tx.query<RatedMovie & { section: keyof RatedTaste }>(RATED_SQL, [userId]);
  const rated: RatedTaste = { loved: [], liked: [], disliked: [] };
  for (const r of rows) {
    rated[r.section].push({ title: r.title, year: Number(r.year), rating: Number(r.rating) });
  }
  return rated;
}

function line(movie: RatedMovie): string {
  const title = movie.title.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS);
  return `- ${movie.year ? `${title} (${movie.year})` : title}: ${movie.rating}/10`;
}

/**
 * The prompt lines of the rated sections (none for an unrated history), ending with the
 * instruction to steer clear of what resembles the disliked films.
 */
export function ratedSections(rated: RatedTaste | undefined): string[] {
  if (!rated) return [];
  const lines: string[] = [];
  const section = (heading: string, movies: RatedMovie[], cap: number) => {
    if (movies.length === 0) return;
    lines.push(heading);
    for (const movie of movies.slice(0, cap)) lines.push(line(movie));
  };
  section("Loved (rated 8-10 of 10), best and most recent first:", rated.loved, RATED_TITLES.loved);
  section("Liked (rated 5-7):", rated.liked, RATED_TITLES.liked);
  section("Disliked (rated 1-4), most disliked first:", rated.disliked, RATED_TITLES.disliked);
  if (rated.disliked.length > 0) {
    lines.push(
      "Avoid films that resemble the disliked ones (same premise, style or franchise); " +
        "lean towards what resembles the loved ones.",
    );
  } else if (rated.loved.length > 0) {
    lines.push("Lean towards films that resemble the loved ones.");
  }
  return lines;
}
