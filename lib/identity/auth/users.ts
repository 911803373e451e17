/** Rows of auth.users for the built-in provider, and the User object GoTrue sends for one. */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** The columns of auth.users the built-in provider reads. */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: Date | string | null;
  last_sign_in_at: Date | string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | string | null;
  updated_at: Date | string | null;
}

const COLUMNS = `id::text as id, aud, role, email, encrypted_password, email_confirmed_at,
  last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at`;

/** A UUID in its text form; anything else cannot be an auth.users id. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user with this email, in any letter case. */
export async function findUserByEmail(sql: Sql, email: string): Promise<UserRow | null> {
  const [row] = await sql.query<UserRow>(
    `select ${COLUMNS} from auth.users where lower(email) = lower(btrim($1)) limit 1`,
    [email],
  );
  return row ?? null;
}

/** The user with this id. */
export async function findUserById(sql: Sql, id: string): Promise<UserRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await sql.query<UserRow>(`select ${COLUMNS} from auth.users where id = $1`, [id]);
  return row ?? null;
}

/**
 * Inserts an email user with a bcrypt hash, filled as Supabase Auth fills its rows, its address
 * unconfirmed (`email_confirmed_at` null) until its owner proves it (docs/identity.md, "Proven
 * addresses"). A concurrent insert of the same email fails on users_email_lower_key (23505).
 */
export async function insertUser(
  sql: Sql,
  user: { email: string; passwordHash: string },
  options: { now: number },
): Promise<{ id: string; email: string }> {
  const id = crypto.randomUUID();
  await sql.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
       email_confirmed_at, raw_app_meta_data, raw_user_meta_data, is_super_admin,
       created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       $3, null, '{"provider":"email","providers":["email"]}', '{}', false,
       to_timestamp($4 / 1000.0), to_timestamp($4 / 1000.0), false)`,
    [id, user.email, user.passwordHash, options.now],
  );
  return { id, email: user.email };
}

/** Marks the user's address proven (kept as it was when it already is). */
export async function confirmEmail(sql: Sql, id: string, options: { now: number }): Promise<void> {
  await sql.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at,
         to_timestamp($2 / 1000.0)), updated_at = to_timestamp($2 / 1000.0)
     where id = $1`,
    [id, options.now],
  );
}

/** Records a successful sign-in; returns the updated row. */
export async function touchSignIn(
  sql: Sql,
  id: string,
  options: { now: number },
): Promise<UserRow> {
  const [row] = await sql.query<UserRow>(
    `update auth.users set last_sign_in_at = to_timestamp($2 / 1000.0),
       updated_at = to_timestamp($2 / 1000.0)
     where id = $1 returning ${COLUMNS}`,
    [id, options.now],
  );
  return row;
}

/** Whether an error is PostgreSQL's unique violation (both engines set SQLSTATE on `code`). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    (error as { code?: unknown }).code === "23505";
}

function iso(value: Date | string | null): string | undefined {
  if (value === null || value === undefined) return undefined;
  return new Date(value).toISOString();
}

/** The User object of GoTrue's /user and token responses (no hash, no tokens). */
export function toGoTrueUser(
  row: UserRow,
  extras: { factors?: Record<string, unknown>[]; identities?: Record<string, unknown>[] } = {},
): Record<string, unknown> {
  const createdAt = iso(row.created_at) ?? new Date(0).toISOString();
  const updatedAt = iso(row.updated_at) ?? createdAt;
  const confirmedAt = iso(row.email_confirmed_at);
  const lastSignIn = iso(row.last_sign_in_at);
  return {
    id: row.id,
    aud: row.aud ?? "authenticated",
    role: row.role ?? "authenticated",
    email: row.email,
    ...(confirmedAt ? { email_confirmed_at: confirmedAt, confirmed_at: confirmedAt } : {}),
    phone: "",
    ...(lastSignIn ? { last_sign_in_at: lastSignIn } : {}),
    app_metadata: row.raw_app_meta_data ?? { provider: "email", providers: ["email"] },
    user_metadata: row.raw_user_meta_data ?? {},
    // GoTrue leaves `factors` out when there are none.
    ...(extras.factors?.length ? { factors: extras.factors } : {}),
    identities: [
      ...(row.encrypted_password === null && extras.identities?.length ? [] : [{
        identity_id: row.id,
        id: row.id,
        user_id: row.id,
        identity_data: {
          email: row.email,
          email_verified: Boolean(confirmedAt),
          phone_verified: false,
          sub: row.id,
        },
        provider: "email",
        ...(lastSignIn ? { last_sign_in_at: lastSignIn } : {}),
        created_at: createdAt,
        updated_at: updatedAt,
        email: row.email,
      }]),
      ...(extras.identities ?? []),
    ],
    created_at: createdAt,
    updated_at: updatedAt,
    is_anonymous: false,
  };
}

/**
 * Sets a new password hash and/or merges `data` into the user metadata; returns the row, or
 * null when the user is gone.
 */
export async function updateUserRow(
  sql: Sql,
  id: string,
  change: { passwordHash?: string; data?: Record<string, unknown>; now: number },
): Promise<UserRow | null> {
  const [row] = await sql.query<UserRow>(
    `update auth.users set encrypted_password = coalesce($2, encrypted_password),
       raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $3::text::jsonb,
       updated_at = to_timestamp($4 / 1000.0)
     where id = $1 returning ${COLUMNS}`,
    [id, change.passwordHash ?? null, JSON.stringify(change.data ?? {}), change.now],
  );
  return row ?? null;
}
