/**
 * The statements of movie nights (docs/nights.md), over the server-only tables of
 * 20261206100600_movie_nights.sql; the service checks who may do what before each one.
 */
import { CARD_COLUMNS } from "@/lib/catalog/cards.ts";

/**
 * A member's name as the others see it: their public profile's display name, else the name
 * they signed up with, else their email's part before the @ (never the whole address).
 */
const DISPLAY_NAME = `coalesce(nullif(p.display_name, ''),
    nullif(u.raw_user_meta_data ->> 'display_name', ''),
    nullif(u.raw_user_meta_data ->> 'full_name', ''),
    nullif(u.raw_user_meta_data ->> 'name', ''),
    nullif(split_part(coalesce(u.email, ''), '@', 1), ''), 'Member')`;

/** A new night and its creator as its first member. */
export const CREATE_SQL = `with night as (
    insert into public.movie_nights (id, creator_id, name, only_mine, token_hash, created_at, expires_at)
    values ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)
    returning id, creator_id, created_at)
  insert into public.movie_night_members (night_id, user_id, joined_at, seq)
  select id, creator_id, created_at, 0 from night`;

/** How many unexpired nights a user has made (the cap of docs/nights.md). */
export const OPEN_NIGHTS_SQL = `select count(*)::int as open from public.movie_nights
  where creator_id = $1 and expires_at > $2::timestamptz`;

/** Nights ended long ago go (they are read as "ended" for a week). */
export const SWEEP_SQL = `delete from public.movie_nights where expires_at < $1::timestamptz`;

/**
 * Locks the night's row for the transaction's writes. Alone, before LOCK_SQL: a statement that
 * waited for the lock still reads the snapshot it started with (PostgreSQL's read committed), so
 * a count of members read by the locking statement itself could miss a join just committed.
 */
export const LOCK_ROW_SQL = `select 1 from public.movie_nights where id = $1 for update`;

/** The locked night as the caller (`$2`) may change it: read after LOCK_ROW_SQL, afresh. */
export const LOCK_SQL = `select id, creator_id as "creatorId", token_hash as "tokenHash",
    expires_at as "expiresAt", match_catalog_id as "match", started_at as "startedAt",
    only_mine as "onlyMine",
    (select count(*)::int from public.movie_night_members mm where mm.night_id = n.id) as members,
    exists (select 1 from public.movie_night_members mm
             where mm.night_id = n.id and mm.user_id = $2) as "isMember"
  from public.movie_nights n where n.id = $1`;

/** Adds a member after the others (a second join changes nothing). */
export const ADD_MEMBER_SQL =
  `insert into public.movie_night_members (night_id, user_id, joined_at, seq)
  select $1, $2, $3::timestamptz,
         coalesce((select max(seq) + 1 from public.movie_night_members where night_id = $1), 0)
  on conflict (night_id, user_id) do nothing
  returning seq`;

/** Removes a member and their votes. */
export const REMOVE_MEMBER_SQL = `with gone as (
    delete from public.movie_night_members where night_id = $1 and user_id = $2 returning user_id)
  delete from public.movie_night_votes v using gone
   where v.night_id = $1 and v.user_id = gone.user_id`;

/** Hands the night to the member who joined first after the creator who left. */
export const HAND_OVER_SQL = `update public.movie_nights n
     set creator_id = (select mm.user_id from public.movie_night_members mm
                        where mm.night_id = n.id order by mm.seq limit 1)
   where n.id = $1
  returning creator_id as "creatorId"`;

/** Deletes a night (its members, shortlist and votes cascade). */
export const DELETE_SQL = `delete from public.movie_nights where id = $1`;

/** A display name of one user. */
export const NAME_SQL = `select ${DISPLAY_NAME} as "displayName"
  from auth.users u left join public.user_profiles p on p.user_id = u.id where u.id = $1`;

/** The members' ids, in the order they joined. */
export const MEMBER_IDS_SQL = `select user_id::text as "userId" from public.movie_night_members
  where night_id = $1 order by seq`;

/**
 * Of the candidates `$2`, those no member (`$1`) watched or dismissed: each a probe of the two
 * tables' (user, film) keys, rather than reading every member's thousands of films.
 */
export const UNSEEN_SQL = `select c.id as "catalogId"
  from unnest($2::integer[]) with ordinality as c(id, ord)
  where not exists (select 1 from public.user_watched_movies w
                     where w.user_id = any ($1::uuid[]) and w.catalog_id = c.id)
    and not exists (select 1 from public.user_dismissed_movies d
                     where d.user_id = any ($1::uuid[]) and d.catalog_id = c.id)
  order by c.ord`;

/**
 * Of `$2`'s films, those streaming (flatrate, free or ads) on a service of any member (`$1`) in
 * that member's region.
 */
export const STREAMING_SQL = `select distinct so.catalog_id as "catalogId"
  from public.user_services us
  join public.movie_streaming_offers so
    on so.region = us.region and so.provider_id = any (us.provider_ids)
  where us.user_id = any ($1::uuid[]) and so.catalog_id = any ($2::integer[])`;

/** A new shortlist replaces the old one and its votes; the match is cleared. */
export const CLEAR_SHORTLIST_SQL =
  `with v as (delete from public.movie_night_votes where night_id = $1),
  s as (delete from public.movie_night_shortlist where night_id = $1)
  update public.movie_nights set started_at = $2::timestamptz, match_catalog_id = null
   where id = $1`;

/** Writes the shortlist: `$2` ids in order with `$3` their reasons (a JSON array of arrays). */
export const INSERT_SHORTLIST_SQL = `insert into public.movie_night_shortlist
    (night_id, position, catalog_id, reasons)
  select $1, l.ord, l.catalog_id, ($3::text::jsonb) -> (l.ord::int - 1)
  from unnest($2::integer[]) with ordinality as l(catalog_id, ord)`;

/** The films of the current shortlist, in order. */
export const SHORTLIST_IDS_SQL = `select catalog_id as "catalogId" from public.movie_night_shortlist
  where night_id = $1 order by position`;

/** Records (or changes) a member's vote on a film of the shortlist. */
export const VOTE_SQL =
  `insert into public.movie_night_votes (night_id, user_id, catalog_id, yes, voted_at)
  select $1, $2, $3, $4, $5::timestamptz
   where exists (select 1 from public.movie_night_shortlist
                  where night_id = $1 and catalog_id = $3)
  on conflict (night_id, user_id, catalog_id)
  do update set yes = excluded.yes, voted_at = excluded.voted_at
  returning 1 as recorded`;

/** The first film of the shortlist (by position) every member said yes to, if any. */
export const ALL_YES_SQL = `select s.catalog_id as "catalogId" from public.movie_night_shortlist s
  where s.night_id = $1
    and (select count(*) from public.movie_night_votes v
          where v.night_id = $1 and v.catalog_id = s.catalog_id and v.yes
            and v.user_id in (select user_id from public.movie_night_members where night_id = $1))
      = (select count(*) from public.movie_night_members where night_id = $1)
    and ($2::integer is null or s.catalog_id = $2)
  order by s.position limit 1`;

/** Sets the match. */
export const SET_MATCH_SQL = `update public.movie_nights set match_catalog_id = $2 where id = $1`;

/**
 * The whole night in one statement: its row, its members (name, votes cast on the shortlist),
 * the shortlist's cards and reasons, and every vote (at most 8 x 12).
 */
export const READ_SQL = `select n.id::text as id, n.name, n.creator_id::text as "creatorId",
    n.only_mine as "onlyMine", n.expires_at as "expiresAt", n.started_at as "startedAt",
    n.match_catalog_id as "match",
    (select coalesce(jsonb_agg(jsonb_build_object(
        'userId', mm.user_id::text, 'displayName', ${DISPLAY_NAME}) order by mm.seq), '[]'::jsonb)
       from public.movie_night_members mm
       join auth.users u on u.id = mm.user_id
       left join public.user_profiles p on p.user_id = mm.user_id
      where mm.night_id = n.id) as members,
    (select coalesce(jsonb_agg(to_jsonb(c) order by c.position), '[]'::jsonb) from (
        select s.position, s.reasons, ${CARD_COLUMNS}
          from public.movie_night_shortlist s
          cross join lateral (select s.catalog_id) l
          left join public.movies m on m.catalog_id = s.catalog_id
         where s.night_id = n.id) c) as shortlist,
    (select coalesce(jsonb_agg(jsonb_build_object(
        'userId', v.user_id::text, 'catalogId', v.catalog_id, 'yes', v.yes)), '[]'::jsonb)
       from public.movie_night_votes v where v.night_id = n.id) as votes
  from public.movie_nights n where n.id = $1`;
