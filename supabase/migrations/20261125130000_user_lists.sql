-- Lists of a user's own (docs/user_lists.md): a name, a description, ranked or not, private,
-- unlisted or public; items with a position 1..n and a note. The owner alone reads and writes
-- them through the API (row-level security below); the shared read goes through
-- public.shared_list, one security-definer function that takes the slug.

create table public.user_lists (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 100),
  description text not null default '' check (char_length(description) <= 2000),
  visibility text not null default 'private'
    check (visibility in ('private', 'unlisted', 'public')),
  ranked boolean not null default false,
  -- 128 random bits, base64url (22 characters); present exactly when the list is not private,
  -- so a private list can never be reached by a slug.
  share_slug text unique check (share_slug ~ '^[A-Za-z0-9_-]{22}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((visibility = 'private') = (share_slug is null))
);
-- GET /api/lists: the user's lists, most recently changed first.
create index user_lists_owner_idx on public.user_lists (user_id, updated_at desc, id);

create table public.user_list_items (
  list_id uuid not null references public.user_lists (id) on delete cascade,
  catalog_id integer not null check (catalog_id > 0),
  position integer not null check (position >= 1),
  note text check (char_length(note) <= 500),
  -- The item's position in the file it was imported from (docs/user_lists.md): an import's
  -- batches arrive in no list's order, and renumbering by it keeps the file's order.
  source_position integer,
  added_at timestamptz not null default now(),
  primary key (list_id, catalog_id),
  -- Checked at the end of each statement, so one update can renumber a whole run of items.
  constraint user_list_items_position_key unique (list_id, position) deferrable initially immediate
);

alter table public.user_lists enable row level security;
alter table public.user_list_items enable row level security;

create policy user_lists_select on public.user_lists for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_lists_insert on public.user_lists for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy user_lists_update on public.user_lists for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy user_lists_delete on public.user_lists for delete to authenticated
  using (user_id = (select auth.uid()));

-- An item is the owner's when its list is. The subquery is uncorrelated, so it runs once per
-- statement (a hashed set), not once per row: a move renumbers thousands of rows.
create policy user_list_items_select on public.user_list_items for select to authenticated
  using (list_id in (select l.id from public.user_lists l
    where l.user_id = (select auth.uid())));
create policy user_list_items_insert on public.user_list_items for insert to authenticated
  with check (list_id in (select l.id from public.user_lists l
    where l.user_id = (select auth.uid())));
create policy user_list_items_update on public.user_list_items for update to authenticated
  using (list_id in (select l.id from public.user_lists l
    where l.user_id = (select auth.uid())))
  with check (list_id in (select l.id from public.user_lists l
    where l.user_id = (select auth.uid())));
create policy user_list_items_delete on public.user_list_items for delete to authenticated
  using (list_id in (select l.id from public.user_lists l
    where l.user_id = (select auth.uid())));

grant select, insert, update, delete on public.user_lists to authenticated;
grant select, insert, update, delete on public.user_list_items to authenticated;
grant all on public.user_lists to service_role;
grant all on public.user_list_items to service_role;

-- The public profile: off by default; a handle people can find the user by.
create table public.user_profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  handle text not null unique check (handle ~ '^[a-z0-9_]{3,30}$'),
  display_name text not null check (char_length(display_name) between 1 and 40),
  public boolean not null default false,
  show_stats boolean not null default false,
  updated_at timestamptz not null default now()
);

alter table public.user_profiles enable row level security;

create policy user_profiles_select on public.user_profiles for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_profiles_insert on public.user_profiles for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy user_profiles_update on public.user_profiles for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy user_profiles_delete on public.user_profiles for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.user_profiles to authenticated;
grant all on public.user_profiles to service_role;

-- The shared read: one page of a list reached by its slug, in position order, after position
-- `after_position`, at most `page_size` rows (one more is asked for to know a next page exists).
-- It answers the list's name, description, ranked flag and count, the owner's handle and
-- display name when they made a profile, and the cards with position and note: never the
-- list's or the owner's id, nor an email. A list without items answers one row of nulls.
create or replace function public.shared_list(slug text, after_position integer, page_size integer)
returns table (
  name text,
  description text,
  ranked boolean,
  visibility text,
  item_count integer,
  owner_handle text,
  owner_display_name text,
  catalog_id integer,
  "position" integer,
  note text,
  title text,
  year integer,
  poster_path text,
  genres text[],
  runtime integer
)
language sql
stable
security definer
set search_path = ''
as $$
  select l.name, l.description, l.ranked, l.visibility, l.item_count,
         p.handle, p.display_name,
         i.catalog_id, i.position, i.note,
         coalesce(m.title, ''), coalesce(m.year, 0), coalesce(m.poster_path, ''),
         coalesce(m.genres, '{}'), coalesce(m.runtime, 0)
    from (
      -- The list once, with its count taken once (not again for every card row).
      select x.id, x.user_id, x.name, x.description, x.ranked, x.visibility,
             (select count(*)::integer from public.user_list_items c where c.list_id = x.id)
               as item_count
        from public.user_lists x
       where x.share_slug = slug and x.visibility <> 'private'
      offset 0 -- kept apart: pulled up, the count would run again for every card row
    ) l
    left join public.user_profiles p on p.user_id = l.user_id
    left join lateral (
      select it.catalog_id, it.position, it.note
        from public.user_list_items it
       where it.list_id = l.id and it.position > after_position
       order by it.position
       limit page_size
    ) i on true
    left join public.movies m on m.catalog_id = i.catalog_id
   order by i.position
$$;

revoke execute on function public.shared_list(text, integer, integer) from public, anon;
grant execute on function public.shared_list(text, integer, integer) to authenticated, service_role;
