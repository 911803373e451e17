/** auth.identities of the OpenID Connect provider: who (issuer, subject) is in this service. */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** The provider name of these identities in auth.identities. */
const OIDC_PROVIDER = "oidc";

/** The user of an identity, or null. */
export async function findIdentityUser(
  sql: Sql,
  identity: { issuer: string; subject: string },
): Promise<string | null> {
  const [row] = await sql.query<{ user_id: string }>(
    `select user_id::text as user_id from auth.identities
     where provider = $1 and provider_id = $2 and identity_data ->> 'iss' = $3`,
    [OIDC_PROVIDER, identity.subject, identity.issuer],
  );
  return row?.user_id ?? null;
}

/**
 * The user's identity at `issuer` (its email as the provider last said it), or null; the issuer
 * as configured, without the trailing slash some providers' `iss` has.
 */
export async function findUserIdentity(
  sql: Sql,
  identity: { userId: string; issuer: string },
): Promise<{ email: string | null } | null> {
  const [row] = await sql.query<{ email: string | null }>(
    `select identity_data ->> 'email' as email from auth.identities
     where provider = $1 and user_id = $2 and rtrim(identity_data ->> 'iss', '/') = $3
     order by last_sign_in_at desc nulls last limit 1`,
    [OIDC_PROVIDER, identity.userId, identity.issuer],
  );
  return row ? { email: row.email } : null;
}

/**
 * The user's identities at the identity provider, in GoTrue's Identity JSON (`id` is the
 * subject, `identity_id` the row's own id), oldest first: what `GET /auth/v1/user` lists beside
 * the email identity (supabase-js `getUserIdentities`).
 */
export async function listIdentities(sql: Sql, userId: string): Promise<Record<string, unknown>[]> {
  const rows = await sql.query<{
    id: string;
    provider_id: string;
    identity_data: Record<string, unknown>;
    last_sign_in_at: Date | string | null;
    created_at: Date | string | null;
    updated_at: Date | string | null;
  }>(
    `select id::text as id, provider_id, identity_data, last_sign_in_at, created_at, updated_at
     from auth.identities where provider = $1 and user_id = $2
     order by created_at, id`,
    [OIDC_PROVIDER, userId],
  );
  const iso = (v: Date | string | null) => v === null ? undefined : new Date(v).toISOString();
  return rows.map((row) => ({
    identity_id: row.id,
    id: row.provider_id,
    user_id: userId,
    identity_data: row.identity_data,
    provider: OIDC_PROVIDER,
    last_sign_in_at: iso(row.last_sign_in_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    email: typeof row.identity_data.email === "string" ? row.identity_data.email : undefined,
  }));
}

/**
 * Records an identity of a user (or refreshes its data and sign-in time). An identity is
 * (issuer, subject): another issuer's identity of the same subject is another row. False when
 * the identity belongs to another user (left as it is).
 */
export async function saveIdentity(
  sql: Sql,
  identity: { userId: string; issuer: string; subject: string; data: Record<string, unknown> },
  options: { now: number },
): Promise<boolean> {
  const data = { ...identity.data, iss: identity.issuer, sub: identity.subject };
  const rows = await sql.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at,
       created_at, updated_at)
     values ($1, $2, $3::text::jsonb, $4, to_timestamp($5 / 1000.0), to_timestamp($5 / 1000.0),
       to_timestamp($5 / 1000.0))
     on conflict (provider, (identity_data ->> 'iss'), provider_id) do update
       set identity_data = excluded.identity_data, last_sign_in_at = excluded.last_sign_in_at,
         updated_at = excluded.updated_at
     where auth.identities.user_id = excluded.user_id
     returning 1`,
    [identity.subject, identity.userId, JSON.stringify(data), OIDC_PROVIDER, options.now],
  );
  return rows.length > 0;
}
