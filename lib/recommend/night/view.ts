/**
 * A night as GET /api/nights/:id answers it to one member (docs/nights.md): the members' names
 * and progress, the shortlist's cards and reasons, the match, `closest` once everyone has voted
 * on every film, and the caller's own votes. Other members' yes and no stay theirs.
 */
import { type MovieCard, toCard } from "@/lib/catalog/cards.ts";

/** A member as the others see them. */
interface NightMember {
  displayName: string;
  /** Whether they have voted on every film of the shortlist. */
  voted: boolean;
  /** How many films of the shortlist they have voted on. */
  votes: number;
  /** Whether this member is the caller. */
  you: boolean;
  /** Whether this member made the night (may start, reshuffle and delete it). */
  creator: boolean;
}

/** A film of the shortlist. */
interface NightFilm extends MovieCard {
  reasons: string[];
}

/** A film of `closest`: among those with the most yeses. */
interface ClosestFilm {
  catalogId: number;
  yes: number;
}

/** GET /api/nights/:id. */
export interface NightView {
  id: string;
  name: string;
  onlyMine: boolean;
  members: NightMember[];
  shortlist: NightFilm[];
  match: number | null;
  closest: ClosestFilm[];
  expiresAt: string;
  /** Whether the creator has started the vote (there is a shortlist). */
  started: boolean;
  /** The caller's own votes. */
  myVotes: { catalogId: number; vote: "yes" | "no" }[];
}

/** The row READ_SQL returns. */
export interface NightRow {
  id: string;
  name: string;
  creatorId: string;
  onlyMine: boolean;
  expiresAt: Date | string;
  startedAt: Date | string | null;
  match: number | null;
  members: unknown;
  shortlist: unknown;
  votes: unknown;
}

const json = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;

/** The user ids of the row's members. */
export function memberIds(row: NightRow): string[] {
  return json<{ userId: string }[]>(row.members).map((m) => m.userId);
}

/** Whether everyone has voted on every film, and which films have the most yeses (at least one). */
function closestOf(
  shortlist: number[],
  members: string[],
  votes: { userId: string; catalogId: number; yes: boolean }[],
): ClosestFilm[] {
  if (shortlist.length === 0 || members.length === 0) return [];
  const inNight = new Set(members);
  const onList = new Set(shortlist);
  const counted = votes.filter((v) => inNight.has(v.userId) && onList.has(v.catalogId));
  if (counted.length < shortlist.length * members.length) return [];
  const yes = new Map<number, number>();
  for (const v of counted) if (v.yes) yes.set(v.catalogId, (yes.get(v.catalogId) ?? 0) + 1);
  const most = Math.max(0, ...yes.values());
  if (most === 0) return [];
  return shortlist.filter((id) => yes.get(id) === most).map((catalogId) => ({
    catalogId,
    yes: most,
  }));
}

/** The view of `row` for the member `userId`. */
export function nightView(row: NightRow, userId: string): NightView {
  const members = json<{ userId: string; displayName: string }[]>(row.members);
  const films = json<Record<string, unknown>[]>(row.shortlist);
  const votes = json<{ userId: string; catalogId: number; yes: boolean }[]>(row.votes).map((v) => ({
    userId: v.userId,
    catalogId: Number(v.catalogId),
    yes: Boolean(v.yes),
  }));
  const ids = films.map((f) => Number(f.catalogId));
  const onList = new Set(ids);
  const cast = new Map<string, number>();
  for (const v of votes) {
    if (onList.has(v.catalogId)) cast.set(v.userId, (cast.get(v.userId) ?? 0) + 1);
  }
  const match = row.match === null ? null : Number(row.match);
  return {
    id: row.id,
    name: row.name,
    onlyMine: Boolean(row.onlyMine),
    members: members.map((m) => {
      const n = cast.get(m.userId) ?? 0;
      return {
        displayName: m.displayName,
        voted: ids.length > 0 && n >= ids.length,
        votes: n,
        you: m.userId === userId,
        creator: m.userId === row.creatorId,
      };
    }),
    shortlist: films.map((f) => ({
      ...toCard(f),
      reasons: json<unknown[]>(f.reasons).map(String),
    })),
    match,
    closest: match === null ? closestOf(ids, members.map((m) => m.userId), votes) : [],
    expiresAt: new Date(row.expiresAt).toISOString(),
    started: row.startedAt !== null,
    myVotes: votes.filter((v) => v.userId === userId && onList.has(v.catalogId)).map((v) => ({
      catalogId: v.catalogId,
      vote: v.yes ? "yes" : "no",
    })),
  };
}
