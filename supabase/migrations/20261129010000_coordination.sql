-- COORDINATION=postgres (docs/coordination.md): the shared counts, windows, leases and small
-- caches that Deno KV holds by default, here instead, so instances on several machines with one
-- PostgreSQL share every count exactly. The embedded store applies this too and never uses it.
create schema if not exists coordination;

-- One row per KV entry. `key` is the order-preserving text encoding of a Deno KV key (parts
-- tagged by type, each ended by \x01; lib/coordination/key_codec.ts), compared byte by byte
-- (collation "C"), so the primary key's btree serves both the point reads and list({prefix})
-- as a range scan. `value` is JSON with tags for what JSON lacks (KvU64, bigint, bytes).
-- `version` is the commit's number, the versionstamp checks compare. `expires_at` is epoch ms
-- by the writer's clock; reads skip rows past it and the sweep deletes them.
create table coordination.entries (
  key text collate "C" primary key,
  value jsonb not null,
  version bigint not null,
  expires_at bigint
);
-- The sweep's access path: the oldest expired rows first, never a full scan.
create index entries_expires_idx on coordination.entries (expires_at)
  where expires_at is not null;

-- Versionstamps: one number per commit, increasing.
create sequence coordination.versions;

-- Not user data, and no row belongs to a user: only the server's own connection (the owner)
-- reads and writes it. anon and authenticated (Supabase's API roles, which PostgREST would let
-- any visitor use) get nothing, so no counts, leases, sign-in flows or HMAC secrets leak
-- through Supabase's API; hence no row-level security either.
revoke all on schema coordination from public, anon, authenticated;
revoke all on all tables in schema coordination from public, anon, authenticated;
revoke all on all sequences in schema coordination from public, anon, authenticated;

-- Takes the transaction's advisory locks on `p_keys` in the order of their hashes, so two
-- commits over overlapping keys queue instead of deadlocking (seed 29: the coordination
-- namespace of lib/store/advisory_locks.ts). Held until the statement's transaction ends.
create function coordination.lock_keys(p_keys text[]) returns void
language plpgsql set search_path = '' as $$
declare
  h bigint;
begin
  for h in select distinct pg_catalog.hashtextextended(k, 29) from unnest(p_keys) as k order by 1
  loop
    perform pg_catalog.pg_advisory_xact_lock(h);
  end loop;
end $$;

-- A count stored at a key: a JSON number (or a tagged KvU64), 0 for anything else.
create function coordination.count_of(p_value jsonb) returns bigint
language sql immutable set search_path = '' as $$
  select case pg_catalog.jsonb_typeof(p_value)
    when 'number' then (p_value #>> '{}')::numeric::bigint
    when 'object' then case when p_value ->> '$kv' = 'u64' then (p_value ->> 'v')::numeric::bigint else 0 end
    else 0 end
$$;

-- One atomic commit (Deno KV's atomic()): `p_ops` is {"checks":[{"k","v"}],"sets":[{"k","v","e"}],
-- "deletes":[k]} with `v` of a check the versionstamp's number (null: must be absent), `e` of a
-- set its expiry (epoch ms, null: none). Locks every key, compares the versions of the live rows
-- (expired ones count as absent), applies the writes; the new version, or null when a check
-- failed (nothing written). One statement, so one round trip.
create function coordination.commit(p_now bigint, p_ops jsonb) returns bigint
language plpgsql set search_path = '' as $$
declare
  v_version bigint;
begin
  perform coordination.lock_keys(array(
    select c ->> 'k' from pg_catalog.jsonb_array_elements(p_ops -> 'checks') as c
    union all select s ->> 'k' from pg_catalog.jsonb_array_elements(p_ops -> 'sets') as s
    union all select d #>> '{}' from pg_catalog.jsonb_array_elements(p_ops -> 'deletes') as d));
  if exists (
    select 1
      from pg_catalog.jsonb_array_elements(p_ops -> 'checks') as c
      left join coordination.entries as e
        on e.key = (c ->> 'k') collate "C" and (e.expires_at is null or e.expires_at > p_now)
     where e.version is distinct from (c ->> 'v')::bigint
  ) then
    return null;
  end if;
  v_version := pg_catalog.nextval('coordination.versions');
  delete from coordination.entries as e
   where e.key in (select (d #>> '{}') collate "C"
                     from pg_catalog.jsonb_array_elements(p_ops -> 'deletes') as d);
  insert into coordination.entries (key, value, version, expires_at)
  select s ->> 'k', s -> 'v', v_version, (s ->> 'e')::bigint
    from pg_catalog.jsonb_array_elements(p_ops -> 'sets') as s
  on conflict (key) do update
    set value = excluded.value, version = excluded.version, expires_at = excluded.expires_at;
  return v_version;
end $$;

-- The counting step of the shared window, the daily quota and every rate limit, as one
-- statement: `p_slots` is [{"k","l","e"}], and one is added to each count at key `k` at once,
-- unless one already holds its limit `l`, or the gate key's time (the window's "closed until",
-- epoch ms) is past `p_gate_now`. Counts are written as JSON numbers expiring at `p_now + e`.
-- Answers whether it counted, the counts (after when taken, as found when not) and the gate's
-- time (0: none).
-- It commits without waiting for its WAL flush (below), and has no `set search_path`: a
-- function's SET clause undoes at its exit every SET LOCAL made inside it, this one included. It
-- is invoker's rights, and every name in it is schema-qualified or pg_catalog's, which is
-- searched first.
create function coordination.take_count(
  p_now bigint, p_slots jsonb, p_gate text, p_gate_now numeric
) returns table (taken boolean, counts bigint[], closed_until numeric)
language plpgsql as $$
declare
  v_counts bigint[];
  v_limits bigint[];
  v_gate numeric := 0;
  v_version bigint;
begin
  -- The step does not wait for its WAL flush: the key's lock is released at once instead of
  -- after a disk write (one step at a time per key, so the flush would bound the window's pace).
  -- A database crash may forget the last fraction of a second of counts; after a crash that is
  -- a window long gone and a unit or two of a quota or limit.
  perform pg_catalog.set_config('synchronous_commit', 'off', true);
  perform coordination.lock_keys(array(
    select s ->> 'k' from pg_catalog.jsonb_array_elements(p_slots) as s
    union all select p_gate where p_gate is not null));
  select coalesce(pg_catalog.array_agg(coalesce(coordination.count_of(e.value), 0) order by s.i),
                  '{}'),
         coalesce(pg_catalog.array_agg((s.slot ->> 'l')::bigint order by s.i), '{}')
    into v_counts, v_limits
    from pg_catalog.jsonb_array_elements(p_slots) with ordinality as s(slot, i)
    left join coordination.entries as e
      on e.key = (s.slot ->> 'k') collate "C" and (e.expires_at is null or e.expires_at > p_now);
  if p_gate is not null then
    select case when pg_catalog.jsonb_typeof(e.value) = 'number'
                then (e.value #>> '{}')::numeric else 0 end
      into v_gate
      from coordination.entries as e
     where e.key = p_gate collate "C" and (e.expires_at is null or e.expires_at > p_now);
    v_gate := coalesce(v_gate, 0);
  end if;
  if v_gate > p_gate_now
     or exists (select 1 from unnest(v_counts, v_limits) as c(n, l) where c.n >= c.l) then
    return query select false, v_counts, v_gate;
    return;
  end if;
  v_version := pg_catalog.nextval('coordination.versions');
  insert into coordination.entries (key, value, version, expires_at)
  select s.slot ->> 'k', pg_catalog.to_jsonb(v_counts[s.i] + 1), v_version,
         p_now + (s.slot ->> 'e')::bigint
    from pg_catalog.jsonb_array_elements(p_slots) with ordinality as s(slot, i)
  on conflict (key) do update
    set value = excluded.value, version = excluded.version, expires_at = excluded.expires_at;
  return query select true,
    array(select x.n + 1 from unnest(v_counts) with ordinality as x(n, i) order by x.i), v_gate;
end $$;

-- Deletes up to `p_max` rows expired by `p_now`, oldest first; rows a commit holds are left
-- for the next round (skip locked), and a row renewed meanwhile is kept (the expiry is checked
-- again on the row deleted). Answers how many went.
-- The rows are chosen once, in a materialized CTE: an `in (...)` subquery may be rescanned
-- for each row, and a rescan skips rows already deleted and picks others, past `p_max`.
create function coordination.sweep(p_now bigint, p_max integer) returns integer
language plpgsql set search_path = '' as $$
declare
  v_gone integer;
begin
  with doomed as materialized (
    select x.key from coordination.entries as x
     where x.expires_at <= p_now
     order by x.expires_at limit p_max
     for update skip locked
  )
  delete from coordination.entries as e
   using doomed as d
   where e.key = d.key and e.expires_at <= p_now;
  get diagnostics v_gone = row_count;
  return v_gone;
end $$;

revoke execute on all functions in schema coordination from public, anon, authenticated;
