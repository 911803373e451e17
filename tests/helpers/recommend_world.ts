/**
 * The small world the recommendation tests run in: movies in the movies store, a user's
 * watched list and My List written straight with SQL, and a fake AI answer that behaves as a
 * model does (it honours the "do not recommend" list, but happily names watched movies).
 */
import assert from "node:assert/strict";
import type { Store } from "@/lib/platform/store/mod.ts";
import type { FakeClock } from "@/lib/core/clock.ts";
import { type TestApp, testApp } from "./app.ts";
import type { FakeAi, FakeAnswer, RecordedRequest } from "./fake_ai.ts";
import { providersEnv, recommendationsContent, startFakeAi } from "./fake_ai.ts";
import { issueAccessToken } from "./tokens.ts";
import { createUser, type TestUser } from "./users.ts";

/** A movie of the movies store. */
export interface SeedMovie {
  id: number;
  title: string;
  year: number;
  genres?: string[];
  originalTitle?: string;
  popularity?: number;
}

/** Movies `Film <id>` for ids from..to, with years and genres that vary. */
export function numberedMovies(from: number, to: number): SeedMovie[] {
  const movies: SeedMovie[] = [];
  for (let id = from; id <= to; id++) {
    movies.push({
      id,
      title: `Film ${id}`,
      year: 1990 + (id % 30),
      genres: id % 2 ? ["Drama", "Crime"] : ["Comedy"],
    });
  }
  return movies;
}

/** Writes movies into the movies store (one statement). */
export async function seedMovies(store: Store, movies: SeedMovie[]): Promise<void> {
  await store.query(
    `insert into public.movies (catalog_id, title, original_title, year, genres, popularity)
     select u.id, u.title, u.original_title, u.year,
            array(select json_array_elements_text(u.genres::json)), u.popularity
       from unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::text[], $6::float8[])
            as u(id, title, original_title, year, genres, popularity)
     on conflict (catalog_id) do nothing`,
    [
      movies.map((m) => m.id),
      movies.map((m) => m.title),
      movies.map((m) => m.originalTitle ?? m.title),
      movies.map((m) => m.year),
      movies.map((m) => JSON.stringify(m.genres ?? [])),
      movies.map((m) => m.popularity ?? 10),
    ],
  );
}

/** Marks `ids` watched by the user, the last one the most recent. */
export async function markWatched(store: Store, userId: string, ids: number[]): Promise<void> {
  await store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, created_at)
     select $1, u.id, timestamptz '2026-01-01' + u.ord * interval '1 minute'
       from unnest($2::int[]) with ordinality as u(id, ord)
     on conflict do nothing`,
    [userId, ids],
  );
}

/** Sets the user's My List to `ids`, in that order. */
export async function setMyList(store: Store, userId: string, ids: number[]): Promise<void> {
  await store.query(
    `insert into public.user_my_list (user_id, catalog_ids) values ($1, $2::int[])
     on conflict (user_id) do update set catalog_ids = excluded.catalog_ids`,
    [userId, ids],
  );
}

/** The titles listed under "Do not recommend" in a recorded request's prompt. */
export function avoidedTitles(request: RecordedRequest): Set<string> {
  const user = request.body.messages.find((m: { role: string }) => m.role === "user").content;
  const section = user.split("Do not recommend any of these:\n")[1] ?? "";
  return new Set(
    section.split("\n").filter((l: string) => l.startsWith("- ")).map((l: string) => l.slice(2)),
  );
}

/** An AI that names the first `count` movies of `pool` not on the prompt's avoid list. */
export function modelLike(pool: SeedMovie[], count = 20): (r: RecordedRequest) => FakeAnswer {
  return (request) => {
    const avoid = avoidedTitles(request);
    const picks = pool.filter((m) => !avoid.has(`${m.title} (${m.year})`)).slice(0, count);
    return { content: recommendationsContent(picks) };
  };
}

/** The movies of the standard world: Film 1..60. */
export const POOL: SeedMovie[] = numberedMovies(1, 60);
/** What the standard user has watched. */
export const WATCHED = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** The standard user's My List. */
export const MY_LIST = [11, 12, 13, 14];
/** The standard user's first set from modelLike(POOL): unwatched films, two of My List last. */
export const FIRST_SET = [15, 16, 17, 18, 19, 20, 11, 12];

/** Asserts the daily quota headers of a /api/recommend response (limit 20, `remaining` left). */
export function assertQuotaHeaders(res: Response, remaining: number): void {
  assert.equal(res.headers.get("x-ratelimit-limit"), "20");
  assert.equal(res.headers.get("x-ratelimit-remaining"), String(remaining));
  assert.match(res.headers.get("x-ratelimit-reset") ?? "", /^\d+$/);
}

/** A test app with one fake provider, the movies of POOL, and a user with WATCHED and MY_LIST. */
export interface RecommendWorld extends AsyncDisposable {
  t: TestApp;
  ai: FakeAi;
  user: TestUser;
  /** GET `path` as the user, with a token signed now (the clock may have moved past expiry). */
  get(path: string): Promise<Response>;
}

/** Builds the standard world; dispose it with `await using`. */
export async function recommendWorld(
  options: { clock?: FakeClock; env?: Record<string, string> } = {},
): Promise<RecommendWorld> {
  const ai = startFakeAi({ fallback: modelLike(POOL) });
  const t = await testApp({
    env: { ...providersEnv([{ name: "fake", baseUrl: ai.baseUrl }]), ...options.env },
    clock: options.clock,
  });
  await seedMovies(t.store, POOL);
  const user = await createUser(t.deps);
  await markWatched(t.store, user.id, WATCHED);
  await setMyList(t.store, user.id, MY_LIST);
  const headers = async () => {
    const { token } = await issueAccessToken(t.deps, { id: user.id, email: user.email });
    return { authorization: `Bearer ${token}` };
  };
  return {
    t,
    ai,
    user,
    get: async (path) => t.request(path, { headers: await headers() }),
    async [Symbol.asyncDispose]() {
      await ai.close();
      await t[Symbol.asyncDispose]();
    },
  };
}
