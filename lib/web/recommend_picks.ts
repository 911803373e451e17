/**
 * The recommendations island's data in the browser: the stored set with its reasons from
 * GET /api/recommend/current (free: no quota, no lock), My List from GET /api/mylist, and the
 * details of picks the page has no card for from GET /api/movies/:id, a few at a time.
 */
import type { MovieDetail } from "../catalog/types.ts";
import type { MovieCard } from "../catalog/cards.ts";
import type { CurrentSet } from "../recommend/current.ts";
import { api } from "./api.ts";

/** A pick as the page shows it; `loaded` false while its details are still being fetched. */
export interface Pick {
  catalogId: number;
  reason: string;
  inMyList: boolean;
  title: string;
  year: number;
  genres: string[];
  posterUrl: string;
  loaded: boolean;
  /** The user's 👍 on it (1), else 0; a set read after a generation starts at 0. */
  thumb?: number;
}

/** The stored set as the island holds it. */
export interface SetView {
  picks: Pick[];
  createdAt: string;
  expiresAt: string;
  fresh: boolean;
}

const DETAIL_CONCURRENCY = 4;

/** A pick with no details yet. */
function placeholder(catalogId: number, reason: string, inMyList: boolean): Pick {
  const pick = { catalogId, reason, inMyList, title: "", year: 0, genres: [], posterUrl: "" };
  return { ...pick, loaded: false };
}

/** Reads the stored set and My List; picks already on the page keep their details. */
export async function readSet(known: Pick[]): Promise<SetView> {
  const [{ data: set }, { data: list }] = await Promise.all([
    api<CurrentSet>("/api/recommend/current", { auth: true }),
    api<{ movies: MovieCard[] }>("/api/mylist", { auth: true }),
  ]);
  const saved = new Set(list.movies.map((m) => m.catalogId));
  const byId = new Map(known.map((p) => [p.catalogId, p]));
  return {
    picks: set.recommendations.map(({ catalogId, reason }) => {
      const inMyList = saved.has(catalogId);
      const old = byId.get(catalogId);
      return old ? { ...old, reason, inMyList } : placeholder(catalogId, reason, inMyList);
    }),
    createdAt: set.createdAt,
    expiresAt: set.expiresAt,
    fresh: set.fresh,
  };
}

/** Fetches the details of the picks not yet loaded, handing each to `update` as it arrives. */
export async function loadDetails(
  picks: Pick[],
  update: (id: number, fields: Partial<Pick>) => void,
): Promise<void> {
  const queue = picks.filter((p) => !p.loaded).map((p) => p.catalogId);
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        const { data } = await api<MovieDetail>(`/api/movies/${id}`);
        // The detail's own poster URL (w500): the browser needs no image root.
        update(id, {
          title: data.title,
          year: data.year,
          genres: data.genres,
          posterUrl: data.poster,
          loaded: true,
        });
      } catch {
        // The card keeps its number as its title; its page may still load later.
        update(id, { loaded: true });
      }
    }
  };
  await Promise.all(Array.from({ length: DETAIL_CONCURRENCY }, worker));
}
