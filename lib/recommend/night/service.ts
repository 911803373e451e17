/**
 * Movie nights (docs/nights.md): made by a signed-in user, joined by link (at most 8 members,
 * 24 hours), a shortlist of 12 films for the whole group, votes until every member said yes to
 * one (the match), and events to every member's phone.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import { isJoinToken, joinTokenHash, newJoinToken, sameHash } from "./join_token.ts";
import { KEEP_EXPIRED_MS, MAX_MEMBERS, NIGHT_TTL_MS } from "./limits.ts";
import { type NightFields, nightNotFound, type NightVote } from "./payloads.ts";
import * as SQL from "./night_sql.ts";
import { memberIds, type NightRow, type NightView, nightView } from "./view.ts";
import { creatorOnly, expired, full, memberAccess } from "./member_access.ts";
import type { NightBus, NightEvent } from "./events.ts";
import type { NightStreams } from "./streams.ts";
import { buildShortlist, type NightScorer } from "./shortlist.ts";

/** Most nights one user may have open at once. */
const MAX_OPEN_NIGHTS = 10;

/** What POST /api/nights answers. */
export interface CreatedNight {
  id: string;
  joinUrl: string;
  expiresAt: string;
}

/** The movie nights service. */
export interface NightService {
  create(userId: string, fields: NightFields): Promise<CreatedNight>;
  /** Adds `userId` by the link's token; a member already is one (a second join changes nothing). */
  join(userId: string, nightId: string, options: { token: string }): Promise<NightView>;
  /** `userId` leaves; a creator who leaves hands the night to the next member, or ends it alone. */
  leave(userId: string, nightId: string): Promise<void>;
  /** The creator deletes the night; another member 403. */
  remove(userId: string, nightId: string): Promise<void>;
  read(userId: string, nightId: string): Promise<NightView>;
  /** The creator makes the shortlist (again with `reshuffle`) and the vote starts. */
  start(userId: string, nightId: string, options?: { reshuffle?: boolean }): Promise<NightView>;
  vote(userId: string, nightId: string, vote: NightVote): Promise<NightView>;
  /** A member's stream of the night's events. */
  events(userId: string, nightId: string): Promise<ReadableStream<Uint8Array>>;
  /** Ends this instance's streams at shutdown, so they hold no drain (the phones reconnect). */
  closeStreams(): void;
}

/** Builds the service over the store, the events' bus and this instance's streams. */
export function createNightService(
  deps: Pick<AppDeps, "store" | "clock" | "config" | "log">,
  parts: { bus: NightBus; streams: NightStreams; scorer: NightScorer },
): NightService {
  const { store, clock } = deps;
  const { lockNight, readRow, memberRow, asMember, nameOf } = memberAccess(deps);
  const iso = (ms: number) => new Date(ms).toISOString();
  const publish = (night: string, event: NightEvent["event"], data: Record<string, unknown>) =>
    parts.bus.publish({ night, event, data }).catch((error) =>
      deps.log({ level: "warn", msg: "night event not sent", night, error: String(error) })
    );

  const titleOf = (row: NightRow, catalogId: number) =>
    nightView(row, "").shortlist.find((f) => f.catalogId === catalogId)?.title ?? "";

  return {
    async create(userId, fields) {
      const now = clock.now();
      const token = newJoinToken();
      const id = crypto.randomUUID();
      const expiresAt = now + NIGHT_TTL_MS;
      await store.transaction(async (tx) => {
        await tx.query(SQL.SWEEP_SQL, [iso(now - KEEP_EXPIRED_MS)]);
        const [{ open }] = await tx.query<{ open: number }>(SQL.OPEN_NIGHTS_SQL, [
          userId,
          iso(now),
        ]);
        if (open >= MAX_OPEN_NIGHTS) {
          throw new Problem(
            409,
            "too_many_nights",
            `You already have ${MAX_OPEN_NIGHTS} movie nights open; delete one first.`,
          );
        }
        await tx.query(SQL.CREATE_SQL, [
          id,
          userId,
          fields.name,
          fields.onlyMine,
          await joinTokenHash(token),
          iso(now),
          iso(expiresAt),
        ]);
      });
      const site = deps.config.siteUrl.replace(/\/+$/, "");
      return { id, joinUrl: `${site}/nights/${id}?token=${token}`, expiresAt: iso(expiresAt) };
    },

    async join(userId, nightId, { token }) {
      const hash = isJoinToken(token) ? await joinTokenHash(token) : "";
      const added = await store.transaction(async (tx) => {
        const night = await lockNight(tx, nightId, userId);
        // A member who joins again by their own link is home; anyone else needs the right token.
        if (!night || (!night.isMember && !(hash && sameHash(hash, night.tokenHash)))) {
          throw nightNotFound();
        }
        if (new Date(night.expiresAt).getTime() <= clock.now()) throw expired();
        if (night.isMember) return false;
        if (night.members >= MAX_MEMBERS) throw full();
        await tx.query(SQL.ADD_MEMBER_SQL, [nightId, userId, iso(clock.now())]);
        return true;
      });
      const row = await memberRow(userId, nightId);
      if (added) {
        await publish(nightId, "member", {
          change: "joined",
          displayName: await nameOf(userId),
          members: memberIds(row).length,
        });
      }
      return nightView(row, userId);
    },

    async leave(userId, nightId) {
      const name = await nameOf(userId);
      const outcome = await asMember(userId, nightId, async (tx, night) => {
        if (night.members <= 1) {
          await tx.query(SQL.DELETE_SQL, [nightId]);
          return "ended" as const;
        }
        await tx.query(SQL.REMOVE_MEMBER_SQL, [nightId, userId]);
        if (night.creatorId === userId) await tx.query(SQL.HAND_OVER_SQL, [nightId]);
        // The one who held out may have been the last "no": the others' first all-yes matches.
        if (night.match === null && night.startedAt !== null) {
          const [m] = await tx.query<{ catalogId: number }>(SQL.ALL_YES_SQL, [nightId, null]);
          if (m) {
            await tx.query(SQL.SET_MATCH_SQL, [nightId, m.catalogId]);
            return { match: Number(m.catalogId), members: night.members - 1 };
          }
        }
        return { match: null, members: night.members - 1 };
      });
      if (outcome === "ended") return void await publish(nightId, "end", { reason: "deleted" });
      await publish(nightId, "member", {
        change: "left",
        displayName: name,
        members: outcome.members,
      });
      if (outcome.match !== null) await announceMatch(nightId, outcome.match);
    },

    async remove(userId, nightId) {
      await asMember(userId, nightId, async (tx, night) => {
        if (night.creatorId !== userId) throw creatorOnly("delete it");
        await tx.query(SQL.DELETE_SQL, [nightId]);
      });
      await publish(nightId, "end", { reason: "deleted" });
    },

    async read(userId, nightId) {
      return nightView(await memberRow(userId, nightId), userId);
    },

    async start(userId, nightId, options = {}) {
      const first = await memberRow(userId, nightId);
      if (first.creatorId !== userId) throw creatorOnly("start the vote");
      if (first.startedAt !== null && !options.reshuffle) return nightView(first, userId);
      const members = memberIds(first);
      // A reshuffle brings films the last shortlist did not have.
      const previous = nightView(first, userId).shortlist.map((f) => f.catalogId);
      const films = await buildShortlist(deps, members, {
        scorer: parts.scorer,
        onlyMine: Boolean(first.onlyMine),
        exclude: options.reshuffle ? previous : [],
      });
      await asMember(userId, nightId, async (tx, night) => {
        if (night.creatorId !== userId) throw creatorOnly("start the vote");
        await tx.query(SQL.CLEAR_SHORTLIST_SQL, [nightId, iso(clock.now())]);
        if (films.length === 0) return;
        await tx.query(SQL.INSERT_SHORTLIST_SQL, [
          nightId,
          films.map((f) => f.catalogId),
          JSON.stringify(films.map((f) => f.reasons)),
        ]);
      });
      await publish(nightId, "start", {
        films: films.length,
        reshuffle: Boolean(options.reshuffle),
      });
      return nightView(await memberRow(userId, nightId), userId);
    },

    async vote(userId, nightId, vote) {
      const matched = await asMember(userId, nightId, async (tx, night) => {
        if (night.startedAt === null) {
          throw new Problem(409, "night_not_started", "The vote has not started yet.");
        }
        // After the match the night is decided: a vote changes nothing.
        if (night.match !== null) return { recorded: false, match: null };
        const done = await tx.query(SQL.VOTE_SQL, [
          nightId,
          userId,
          vote.catalogId,
          vote.yes,
          iso(clock.now()),
        ]);
        if (done.length === 0) {
          throw new Problem(400, "not_on_shortlist", "That film is not on this night's shortlist.");
        }
        if (!vote.yes) return { recorded: true, match: null };
        const [m] = await tx.query<{ catalogId: number }>(SQL.ALL_YES_SQL, [
          nightId,
          vote.catalogId,
        ]);
        if (!m) return { recorded: true, match: null };
        await tx.query(SQL.SET_MATCH_SQL, [nightId, m.catalogId]);
        return { recorded: true, match: Number(m.catalogId) };
      });
      const row = await memberRow(userId, nightId);
      if (matched.recorded) {
        const view = nightView(row, userId);
        const me = view.members.find((m) => m.you);
        await publish(nightId, "vote", {
          catalogId: vote.catalogId,
          title: titleOf(row, vote.catalogId),
          displayName: me?.displayName ?? "",
          votes: me?.votes ?? 0,
          everyoneVoted: view.members.every((m) => m.voted),
        });
      }
      if (matched.match !== null) await announceMatch(nightId, matched.match, row);
      return nightView(row, userId);
    },

    async events(userId, nightId) {
      const row = await memberRow(userId, nightId);
      return await parts.streams.open(nightId, { expiresAt: new Date(row.expiresAt).getTime() });
    },

    closeStreams: () => parts.streams.closeAll(),
  };

  async function announceMatch(nightId: string, catalogId: number, known?: NightRow) {
    const row = known ?? await readRow(nightId);
    await publish(nightId, "match", {
      catalogId,
      title: row ? titleOf(row, catalogId) : "",
    });
  }
}
