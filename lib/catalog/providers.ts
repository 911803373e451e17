/**
 * Where to watch (docs/catalog.md): TMDB's watch/providers `results` (per region), fetched
 * with the movie's details and stored with its row; read per region as five lists of
 * `{name, logo}`, ordered as TMDB ranks them. Older than 7 days, the movie is fetched again.
 */
import { z } from "zod";
import type { Sql } from "../platform/store/mod.ts";

/** How long stored provider data is served before the movie is fetched again. */
export const PROVIDERS_TTL_MS = 7 * 86_400_000;

/** The kinds of offer, as TMDB names them and the answer lists them. */
const PROVIDER_KINDS = ["flatrate", "rent", "buy", "free", "ads"] as const;

/** One provider in one list. */
export interface WatchProvider {
  name: string;
  /** Full logo URL at w92, or "" when TMDB has none. */
  logo: string;
}

/** The body of GET /api/movies/:id/providers. */
export interface WatchProviders {
  id: number;
  region: string;
  link: string | null;
  flatrate: WatchProvider[];
  rent: WatchProvider[];
  buy: WatchProvider[];
  free: WatchProvider[];
  ads: WatchProvider[];
}

/** What the movies store holds for a movie. */
interface StoredProviders {
  results: Record<string, unknown>;
  cachedAt: number;
}

const offer = z.object({
  provider_name: z.string().trim().min(1),
  logo_path: z.string().nullish(),
  display_priority: z.number().nullish(),
});
// Lenient per entry: one odd provider must not hide the others.
const offers = z.array(z.unknown()).catch([]).transform((items) =>
  items.flatMap((item) => {
    const parsed = offer.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  })
);
const region = z.object({
  link: z.string().url().nullish().catch(null),
  ...Object.fromEntries(PROVIDER_KINDS.map((kind) => [kind, offers.optional()])),
}).catch({ link: null });

/** Stores the `results` of a detail fetch made at `at`, beside the movie's other fields. */
export async function storeProviders(
  sql: Sql,
  id: number,
  options: { results: Record<string, unknown>; at: number },
): Promise<void> {
  await sql.query(
    `update public.movies set watch_providers = $2::text::jsonb, providers_cached_at = $3
      where catalog_id = $1`,
    [id, JSON.stringify(options.results), new Date(options.at).toISOString()],
  );
}

/** The stored provider data of `id`, or null when none was ever fetched. */
export async function readStoredProviders(sql: Sql, id: number): Promise<StoredProviders | null> {
  const [row] = await sql.query<{ results: unknown; cached_at: number | null }>(
    `select watch_providers as results,
            (extract(epoch from providers_cached_at) * 1000)::float8 as cached_at
       from public.movies where catalog_id = $1`,
    [id],
  );
  if (!row || row.results === null || row.cached_at === null) return null;
  const results = typeof row.results === "string" ? JSON.parse(row.results) : row.results;
  return { results: results as Record<string, unknown>, cachedAt: Number(row.cached_at) };
}

/** The answer for `regionCode` out of stored `results`: empty lists when the region has none. */
export function providersFor(
  id: number,
  regionCode: string,
  options: { results: Record<string, unknown>; imageBaseUrl: string },
): WatchProviders {
  const raw = Object.hasOwn(options.results, regionCode) ? options.results[regionCode] : null;
  const parsed = region.parse(raw ?? {}) as
    & { link?: string | null }
    & Partial<Record<(typeof PROVIDER_KINDS)[number], z.output<typeof offers>>>;
  const list = (kind: (typeof PROVIDER_KINDS)[number]): WatchProvider[] =>
    [...(parsed[kind] ?? [])]
      .sort((a, b) => (a.display_priority ?? 1e9) - (b.display_priority ?? 1e9))
      .map((o) => ({
        name: o.provider_name,
        logo: o.logo_path ? `${options.imageBaseUrl}/w92${o.logo_path}` : "",
      }));
  return {
    id,
    region: regionCode,
    link: parsed.link ?? null,
    flatrate: list("flatrate"),
    rent: list("rent"),
    buy: list("buy"),
    free: list("free"),
    ads: list("ads"),
  };
}
