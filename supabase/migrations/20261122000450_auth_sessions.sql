-- The built-in identity provider's sessions and rotating refresh tokens, in the tables and
-- columns Supabase Auth uses (auth.sessions, auth.refresh_tokens). One difference: `token`
-- holds the SHA-256 hex of the refresh token, never the token itself.
--
-- On a Supabase database these tables exist already (owned by Supabase Auth), so nothing here
-- runs there: the whole migration is guarded by to_regclass.

do $$
begin
  if to_regclass('auth.sessions') is null then
    create table auth.sessions (
      id uuid not null,
      user_id uuid not null,
      created_at timestamptz default current_timestamp,
      updated_at timestamptz default current_timestamp,
      refreshed_at timestamp without time zone,
      not_after timestamptz,
      constraint sessions_pkey primary key (id),
      constraint sessions_user_id_fkey foreign key (user_id)
        references auth.users (id) on delete cascade
    );
    create index sessions_user_id_idx on auth.sessions (user_id);
    comment on table auth.sessions is 'Auth: Stores session data associated to a user.';
    -- Only the server (the owner) reads and writes sessions; no policy, no grant.
    alter table auth.sessions enable row level security;
    revoke all on auth.sessions from public, anon, authenticated;
  end if;

  if to_regclass('auth.refresh_tokens') is null then
    create table auth.refresh_tokens (
      instance_id uuid,
      id bigserial not null,
      token varchar(255),
      user_id varchar(255),
      revoked boolean,
      created_at timestamptz,
      updated_at timestamptz,
      parent varchar(255),
      session_id uuid,
      constraint refresh_tokens_pkey primary key (id),
      constraint refresh_tokens_token_unique unique (token),
      constraint refresh_tokens_session_id_fkey foreign key (session_id)
        references auth.sessions (id) on delete cascade
    );
    create index refresh_tokens_session_id_revoked_idx
      on auth.refresh_tokens (session_id, revoked);
    comment on table auth.refresh_tokens is
      'Auth: Store of token hashes used to refresh JWT tokens once they expire.';
    alter table auth.refresh_tokens enable row level security;
    revoke all on auth.refresh_tokens from public, anon, authenticated;
    revoke all on sequence auth.refresh_tokens_id_seq from public, anon, authenticated;
  end if;
end
$$;
