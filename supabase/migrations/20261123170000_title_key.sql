-- Title resolution (lib/recommend/resolve_titles.ts) compares titles by a key: no accents, no
-- case, no spaces or punctuation. Stored in generated columns with indexes, so resolving a
-- round of candidates is index lookups instead of normalising every stored title each time.

-- One definition of the key for the columns and the lookups. Immutable (normalize, lower and
-- regexp_replace all are), which a generated column requires.
create function public.title_key(title text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.regexp_replace(
    pg_catalog.lower(
      pg_catalog.regexp_replace(pg_catalog.normalize(title, 'NFD'), U&'[\0300-\036F]', '', 'g')
    ),
    '[[:space:][:punct:]]+', '', 'g'
  )
$$;

-- Generated, so every write of a movie row (the catalog's upserts, imports, tests' seeds)
-- keeps the key right, and existing rows are filled when the column is added.
alter table public.movies
  add column title_key text not null generated always as (public.title_key(title)) stored,
  add column original_title_key text not null
    generated always as (public.title_key(original_title)) stored;

create index movies_title_key_idx on public.movies (title_key);
create index movies_original_title_key_idx on public.movies (original_title_key);

-- No query compares lower(title): the resolver was the only title lookup, and it now uses the keys.
drop index public.movies_title_lower_idx;
drop index public.movies_original_title_lower_idx;
