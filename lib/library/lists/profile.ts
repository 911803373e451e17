/**
 * The public profile (docs/lists.md): off until its owner turns it on; then its handle,
 * display name, public lists and, when they opt in, their diary's all-time figures. The
 * public read shows no user id and no email.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { readYearStats, type YearStats } from "../diary/mod.ts";
import { Problem } from "@/lib/core/problem.ts";
import { handleSchema, type ProfileFields } from "./profile_payload.ts";
import { shareUrl } from "./sql.ts";

/** The profile as its owner sees it. */
export type Profile = ProfileFields & { url: string };

/** A public list as the profile shows it. */
interface PublicList {
  name: string;
  description: string;
  ranked: boolean;
  count: number;
  updatedAt: string;
  shareUrl: string;
}

/** GET /api/profiles/:handle's body. */
export interface PublicProfile {
  handle: string;
  displayName: string;
  lists: PublicList[];
  /** The diary's all-time figures (docs/diary.md) when the owner opted in, else null. */
  stats: YearStats | null;
}

/** What the profile routes call. */
export interface ProfilesService {
  /** The caller's profile; 404 `no_profile` before they made one. */
  get(userId: string): Promise<Profile>;
  /** Sets the caller's profile; 409 `handle_taken` when another user has the handle. */
  put(userId: string, fields: ProfileFields): Promise<Profile>;
  /** A public profile; 404 `profile_not_found` when none is public by that handle. */
  publicProfile(handle: string): Promise<PublicProfile>;
}

const COLUMNS = `handle, display_name as "displayName", public, show_stats as "showStats"`;

// One statement: the profile and its public lists, newest change first. The user id is read
// for the figures and never leaves the service.
const PUBLIC_SQL = `select p.user_id as "userId", p.handle, p.display_name as "displayName",
    p.show_stats as "showStats",
    coalesce((
      select json_agg(json_build_object(
          'name', ul.name, 'description', ul.description, 'ranked', ul.ranked,
          'count', (select count(*) from public.user_list_items c where c.list_id = ul.id),
          'updatedAt',
            to_char(ul.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'slug', ul.share_slug)
        order by ul.updated_at desc, ul.id)
        from public.user_lists ul
       where ul.user_id = p.user_id and ul.visibility = 'public'
    ), '[]'::json) as lists
  from public.user_profiles p
  where p.handle = $1 and p.public`;

function notFound(): Problem {
  return new Problem(404, "profile_not_found", "No public profile has this handle.");
}

/** Builds the profiles service. */
export function createProfilesService(deps: AppDeps): ProfilesService {
  const { store, config } = deps;
  const shape = (r: Record<string, unknown>): Profile => ({
    handle: String(r.handle),
    displayName: String(r.displayName),
    public: Boolean(r.public),
    showStats: Boolean(r.showStats),
    url: `${config.siteUrl}/u/${r.handle}`,
  });
  return {
    async get(userId) {
      const [row] = await store.query(
        `select ${COLUMNS} from public.user_profiles where user_id = $1::uuid`,
        [userId],
      );
      if (!row) throw new Problem(404, "no_profile", "You have not made a profile yet.");
      return shape(row);
    },
    async put(userId, fields) {
      try {
        const [row] = await store.asUser(userId, (tx) =>
          tx.query(
            `insert into public.user_profiles
               (user_id, handle, display_name, public, show_stats, updated_at)
             values ((select auth.uid()), $1, $2, $3, $4, $5)
             on conflict (user_id) do update set handle = excluded.handle,
               display_name = excluded.display_name, public = excluded.public,
               show_stats = excluded.show_stats, updated_at = excluded.updated_at
             returning ${COLUMNS}`,
            [
              fields.handle,
              fields.displayName,
              fields.public,
              fields.showStats,
              new Date(deps.clock.now()).toISOString(),
            ],
          ));
        return shape(row);
      } catch (error) {
        if ((error as { code?: unknown }).code === "23505") {
          throw new Problem(409, "handle_taken", "Another person has this handle.");
        }
        throw error;
      }
    },
    async publicProfile(handle) {
      if (!handleSchema.safeParse(handle).success) throw notFound();
      const [row] = await store.query(PUBLIC_SQL, [handle]);
      if (!row) throw notFound();
      const lists = (typeof row.lists === "string" ? JSON.parse(row.lists) : row.lists) as {
        slug: string;
        count: number;
      }[];
      return {
        handle: String(row.handle),
        displayName: String(row.displayName),
        lists: lists.map(({ slug, ...l }) => ({
          ...(l as Omit<PublicList, "shareUrl">),
          count: Number(l.count),
          shareUrl: shareUrl(config.siteUrl, slug),
        })),
        stats: row.showStats ? await readYearStats(store, String(row.userId), null) : null,
      };
    },
  };
}
