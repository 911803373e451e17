-- COORDINATION=postgres (docs/coordination.md): the counting step commits without waiting for
-- its WAL flush, so the window's key lock is not held across a disk write (measured: on a busy
-- disk a step held the lock 9-13 ms, and 400 requests at once on two instances queued past the
-- 1-second window). Same function otherwise, but without `set search_path`: a function's SET
-- clause undoes at its exit every SET LOCAL made inside it, this one included. It is invoker's
-- rights, and every name in it is schema-qualified or pg_catalog's, which is searched first.
create or replace function coordination.take_count(
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

revoke execute on function coordination.take_count(bigint, jsonb, text, numeric)
  from public, anon, authenticated;
