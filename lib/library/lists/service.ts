/**
 * The lists of a user's own (docs/lists.md): CRUD, items, sharing. Reads are one statement
 * with the server's privileges scoped to the verified user; writes run as the user under
 * row-level security, so another user's list is a 404 whichever route is asked.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { Prefetch } from "../entries/service.ts";
import { describeError } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import { lockForTransaction, type Sql } from "@/lib/platform/store/mod.ts";
import { encodeCursor, type PageRequest } from "./cursor.ts";
import { addItem, listNotFound, lockList, removeItem, updateItem } from "./items.ts";
import { type ItemAdd, type ItemPatch, type ListFields, MAX_LISTS } from "./payloads.ts";
import { readShared, type SharedPage } from "./shared.ts";
import { newSlug } from "./slug.ts";
import {
  LIST_PAGE_SQL,
  type ListCard,
  LISTS_SQL,
  type ListSummary,
  SUMMARY_COLUMNS,
  toListCard,
  toSummary,
} from "./sql.ts";

/** A list and one page of its cards. */
export interface ListPage {
  list: ListSummary;
  movies: ListCard[];
  nextCursor: string | null;
}

/** An item of a list, named by both ids. */
interface ItemKey {
  listId: string;
  catalogId: number;
}

/** What the list routes call. */
export interface ListsService {
  lists(userId: string): Promise<ListSummary[]>;
  create(userId: string, fields: ListFields & { name: string }): Promise<ListSummary>;
  read(userId: string, listId: string, page?: PageRequest): Promise<ListPage>;
  update(userId: string, listId: string, fields: ListFields): Promise<ListSummary>;
  remove(userId: string, listId: string): Promise<void>;
  addItem(userId: string, listId: string, item: ItemAdd): Promise<ListCard>;
  updateItem(userId: string, key: ItemKey, patch: ItemPatch): Promise<ListCard>;
  removeItem(userId: string, key: ItemKey): Promise<void>;
  /** A new link (the old one dies); a private list becomes unlisted. */
  share(userId: string, listId: string): Promise<{ shareUrl: string }>;
  /** No link any more: the list is private. */
  unshare(userId: string, listId: string): Promise<void>;
  /** The read anyone with the link may make; 404 `list_not_found` for an unknown slug. */
  shared(slug: string, page?: PageRequest): Promise<SharedPage & { visibility: string }>;
}

const FIRST_PAGE: PageRequest = { after: 0, limit: 100 };

/** Builds the service; `prefetch` fetches details of movies the store lacks, in the background. */
export function createListsService(
  deps: AppDeps,
  options: { prefetch?: Prefetch } = {},
): ListsService {
  const { store, config } = deps;
  const now = () => new Date(deps.clock.now()).toISOString();
  const summary = (r: Record<string, unknown>) => toSummary(r, config.siteUrl);

  function prefetch(userId: string, catalogId: number) {
    if (!options.prefetch) return;
    const warn = (error: unknown) =>
      deps.log({ level: "warn", msg: "prefetch failed", catalogId, error: describeError(error) });
    try {
      Promise.resolve(options.prefetch(userId, [catalogId])).catch(warn);
    } catch (error) {
      warn(error);
    }
  }

  async function returning(tx: Sql, text: string, params: unknown[]) {
    const [row] = await tx.query(`${text} returning ${SUMMARY_COLUMNS}`, params);
    if (!row) throw listNotFound();
    return summary(row);
  }

  async function updateList(userId: string, listId: string, fields: ListFields) {
    return await store.asUser(userId, async (tx) => {
      const sets = ["updated_at = $2"];
      const params: unknown[] = [listId, now()];
      for (const [key, column] of [["name", "name"], ["description", "description"]] as const) {
        if (fields[key] !== undefined) sets.push(`${column} = $${params.push(fields[key])}`);
      }
      if (fields.ranked !== undefined) sets.push(`ranked = $${params.push(fields.ranked)}`);
      if (fields.visibility !== undefined) {
        // A list is reachable by a link exactly when it is not private (a table check says so).
        const v = `$${params.push(fields.visibility)}`;
        sets.push(`visibility = ${v}`);
        sets.push(`share_slug = case when ${v} = 'private' then null
          else coalesce(ul.share_slug, $${params.push(newSlug())}) end`);
      }
      return await returning(
        tx,
        `update public.user_lists ul set ${sets.join(", ")} where ul.id = $1::uuid`,
        params,
      );
    });
  }

  return {
    async lists(userId) {
      return (await store.query(LISTS_SQL, [userId])).map(summary);
    },
    async create(userId, fields) {
      return await store.asUser(userId, async (tx) => {
        await lockForTransaction(tx, "userLists", userId);
        const [row] = await tx.query<{ n: number }>(
          `select count(*)::int as n from public.user_lists where user_id = $1::uuid`,
          [userId],
        );
        if (row.n >= MAX_LISTS) {
          throw new Problem(400, "too_many_lists", `You can keep at most ${MAX_LISTS} lists.`);
        }
        const visibility = fields.visibility ?? "private";
        return await returning(
          tx,
          `insert into public.user_lists as ul
             (user_id, name, description, visibility, ranked, share_slug, created_at, updated_at)
           values ($1::uuid, $2, $3, $4, $5, $6, $7, $7)`,
          [
            userId,
            fields.name,
            fields.description ?? "",
            visibility,
            fields.ranked ?? false,
            visibility === "private" ? null : newSlug(),
            now(),
          ],
        );
      });
    },
    async read(userId, listId, page = FIRST_PAGE) {
      const rows = await store.query(LIST_PAGE_SQL, [listId, userId, page.after, page.limit + 1]);
      if (rows.length === 0) throw listNotFound();
      const items = rows.filter((r) => r.catalogId !== null).map(toListCard);
      const more = items.length > page.limit;
      const movies = more ? items.slice(0, page.limit) : items;
      return {
        list: summary(rows[0]),
        movies,
        nextCursor: more ? encodeCursor(movies[movies.length - 1].position) : null,
      };
    },
    update: updateList,
    async remove(userId, listId) {
      const deleted = await store.asUser(
        userId,
        (tx) => tx.query(`delete from public.user_lists where id = $1::uuid returning 1`, [listId]),
      );
      if (deleted.length === 0) throw listNotFound();
    },
    async addItem(userId, listId, item) {
      const { card, known } = await store.asUser(userId, async (tx) => {
        const card = await addItem(tx, { listId, now: now() }, item);
        const [row] = await tx.query<{ known: boolean }>(
          `select exists (select 1 from public.movies where catalog_id = $1 and has_details)
             as known`,
          [item.catalogId],
        );
        return { card, known: row.known };
      });
      if (!known) prefetch(userId, item.catalogId);
      return card;
    },
    updateItem: (userId, key, patch) =>
      store.asUser(userId, (tx) => updateItem(tx, { ...key, now: now() }, patch)),
    removeItem: (userId, key) =>
      store.asUser(userId, (tx) => removeItem(tx, { ...key, now: now() })),
    async share(userId, listId) {
      const list = await store.asUser(userId, async (tx) => {
        await lockList(tx, listId);
        return await returning(
          tx,
          `update public.user_lists ul set share_slug = $2, updated_at = $3,
             visibility = case when visibility = 'private' then 'unlisted' else visibility end
           where ul.id = $1::uuid`,
          [listId, newSlug(), now()],
        );
      });
      return { shareUrl: list.shareUrl! };
    },
    async unshare(userId, listId) {
      await updateList(userId, listId, { visibility: "private" });
    },
    shared: (slug, page = FIRST_PAGE) => readShared(deps, slug, page),
  };
}
