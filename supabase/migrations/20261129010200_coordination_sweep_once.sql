-- COORDINATION=postgres (docs/coordination.md): a sweep round deletes at most `p_max` rows. The
-- first version picked them in an `in (...)` subquery the planner could scan again for each row;
-- a rescan skips the rows this statement already deleted and picks others, so one round could
-- delete more than its bound (measured: 25 rows in two rounds of 10). The rows are now chosen
-- once, in a materialized CTE.
create or replace function coordination.sweep(p_now bigint, p_max integer) returns integer
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

revoke execute on function coordination.sweep(bigint, integer) from public, anon, authenticated;
