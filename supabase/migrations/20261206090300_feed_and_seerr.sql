-- Other apps (docs/trakt.md, "Other apps"): the My List feed's secret, and the user's Seerr.
--
-- The feed's secret sits beside the webhook's in user_connections and works the same way: shown
-- to its owner whenever asked, looked up only by its SHA-256 (unique), rotated by one update.
-- A row made before this migration gets its feed secret on the owner's next read.
alter table public.user_connections
  add column feed_secret text check (feed_secret ~ '^[A-Za-z0-9_-]{22}$'),
  add column feed_secret_hash text unique check (feed_secret_hash ~ '^[0-9a-f]{64}$');

-- The user's Seerr (Overseerr, Jellyseerr): its base URL and its API key, the key only as
-- AES-256-GCM ciphertext (base64url of the 12-byte nonce and the sealed key) under a key that
-- is not in this database (docs/trakt.md): a copy of the database holds no usable key.
create table public.user_seerr (
  user_id uuid primary key references auth.users (id) on delete cascade,
  url text not null check (char_length(url) between 1 and 500),
  key_cipher text not null check (char_length(key_cipher) between 1 and 2000),
  saved_at timestamptz not null default now()
);

alter table public.user_seerr enable row level security;

create policy seerr_select on public.user_seerr for select to authenticated
  using (user_id = (select auth.uid()));
create policy seerr_insert on public.user_seerr for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy seerr_update on public.user_seerr for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy seerr_delete on public.user_seerr for delete to authenticated
  using (user_id = (select auth.uid()));

grant select, insert, update, delete on public.user_seerr to authenticated;
grant all on public.user_seerr to service_role;
