-- The local recommender's per-user cache (docs/recommend.md, "Local picks"): one sequence taken
-- by every statement that writes what the model reads of users (watched lists and ratings, My
-- List, dismissals, 👍/👎, the streaming switch). A process keeps a user's weighed taste while
-- the sequence stands still; any such write anywhere moves it, so the next request reads again.
-- A number, not a lock: writers never wait on each other for it.

create sequence public.recommend_taste_rev_seq;

create function public.recommend_taste_touched()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_catalog.nextval('public.recommend_taste_rev_seq');
  return null;
end
$$;

revoke execute on function public.recommend_taste_touched() from public, anon, authenticated;

create trigger user_watched_movies_taste_rev after insert or update or delete
  on public.user_watched_movies for each statement
  execute function public.recommend_taste_touched();
create trigger user_my_list_taste_rev after insert or update or delete
  on public.user_my_list for each statement execute function public.recommend_taste_touched();
create trigger user_dismissed_movies_taste_rev after insert or update or delete
  on public.user_dismissed_movies for each statement
  execute function public.recommend_taste_touched();
create trigger recommend_feedback_taste_rev after insert or update or delete
  on public.recommend_feedback for each statement
  execute function public.recommend_taste_touched();
create trigger user_services_taste_rev after insert or update or delete
  on public.user_services for each statement execute function public.recommend_taste_touched();

grant usage, select on sequence public.recommend_taste_rev_seq to service_role;
