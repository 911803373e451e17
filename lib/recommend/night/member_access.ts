/**
 * How the movie nights service reaches a night (docs/nights.md): read for a member (404 for
 * anyone else, 410 once it has ended), or locked in a transaction, and the problems it answers.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { Problem } from "@/lib/core/problem.ts";
import { MAX_MEMBERS } from "./limits.ts";
import { nightNotFound } from "./payloads.ts";
import * as SQL from "./night_sql.ts";
import { memberIds, type NightRow } from "./view.ts";

/** A night as the caller's transaction holds it locked (SQL.LOCK_SQL). */
interface LockedNight {
  id: string;
  creatorId: string;
  tokenHash: string;
  expiresAt: Date | string;
  match: number | null;
  startedAt: Date | string | null;
  onlyMine: boolean;
  members: number;
  isMember: boolean;
}

/** 410: the night's 24 hours are over. */
export function expired(): Problem {
  return new Problem(410, "night_expired", "This movie night has ended (nights last 24 hours).");
}

/** 409: no place left for another member. */
export function full(): Problem {
  return new Problem(409, "night_full", `This movie night already has ${MAX_MEMBERS} members.`);
}

/** 403: `what` is the creator's alone. */
export function creatorOnly(what: string): Problem {
  return new Problem(403, "not_night_creator", `Only the night's creator may ${what}.`);
}

/** The reads and the lock the service builds its operations from. */
export function memberAccess(deps: Pick<AppDeps, "store" | "clock">) {
  const { store, clock } = deps;

  /** The night locked for this transaction, read after the lock (see LOCK_ROW_SQL). */
  const lockNight = async (tx: Sql, nightId: string, userId: string) => {
    await tx.query(SQL.LOCK_ROW_SQL, [nightId]);
    return (await tx.query<LockedNight>(SQL.LOCK_SQL, [nightId, userId]))[0];
  };

  const readRow = async (nightId: string) =>
    (await store.query<NightRow>(SQL.READ_SQL, [nightId]))[0];

  /** The night for a member: 404 for anyone else, 410 once it has ended. */
  const memberRow = async (userId: string, nightId: string): Promise<NightRow> => {
    const row = await readRow(nightId);
    if (!row || !memberIds(row).includes(userId)) throw nightNotFound();
    if (new Date(row.expiresAt).getTime() <= clock.now()) throw expired();
    return row;
  };

  /** Runs `fn` on the locked night the caller is a member of (404, 410 as `memberRow`). */
  const asMember = <T>(
    userId: string,
    nightId: string,
    fn: (
      tx: Parameters<Parameters<typeof store.transaction>[0]>[0],
      night: LockedNight,
    ) => Promise<T>,
  ) =>
    store.transaction(async (tx) => {
      const night = await lockNight(tx, nightId, userId);
      if (!night || !night.isMember) throw nightNotFound();
      if (new Date(night.expiresAt).getTime() <= clock.now()) throw expired();
      return await fn(tx, night);
    });

  const nameOf = async (userId: string) =>
    (await store.query<{ displayName: string }>(SQL.NAME_SQL, [userId]))[0]?.displayName ??
      "Member";

  return { lockNight, readRow, memberRow, asMember, nameOf };
}
