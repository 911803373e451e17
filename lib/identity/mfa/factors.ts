/** Rows of auth.mfa_factors and auth.mfa_challenges, and the Factor object GoTrue sends for one. */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** A factor as the store holds it (the secret never leaves lib/identity/mfa). */
export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: "verified" | "unverified";
  created_at: Date | string;
  updated_at: Date | string;
  secret: string | null;
}

const COLUMNS = `id::text as id, user_id::text as user_id, friendly_name, factor_type::text as
  factor_type, status::text as status, created_at, updated_at, secret`;

/** Most factors one user may hold (Supabase Auth's default). */
export const MAX_FACTORS = 10;

/** How long a challenge may be answered (Supabase Auth's default: 5 minutes). */
export const CHALLENGE_TTL_MS = 300_000;

const iso = (v: Date | string) => new Date(v).toISOString();

/** GoTrue's Factor JSON (on the User object's `factors`). */
export function toGoTrueFactor(row: FactorRow): Record<string, unknown> {
  return {
    id: row.id,
    friendly_name: row.friendly_name ?? "",
    factor_type: row.factor_type,
    status: row.status,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The user's factors, oldest first. */
export async function listFactors(sql: Sql, userId: string): Promise<FactorRow[]> {
  return await sql.query<FactorRow>(
    `select ${COLUMNS} from auth.mfa_factors where user_id = $1 order by created_at, id`,
    [userId],
  );
}

/** One of the user's factors, or null (another user's factor is not theirs to see). */
export async function findFactor(
  sql: Sql,
  userId: string,
  factorId: string,
): Promise<FactorRow | null> {
  const [row] = await sql.query<FactorRow>(
    `select ${COLUMNS} from auth.mfa_factors where id = $1 and user_id = $2`,
    [factorId, userId],
  );
  return row ?? null;
}

/** Whether the user has a verified factor: sign-in then asks for a code. */
export async function hasVerifiedFactor(sql: Sql, userId: string): Promise<boolean> {
  const [row] = await sql.query<{ yes: boolean }>(
    `select exists (select 1 from auth.mfa_factors where user_id = $1 and status::text = 'verified')
       as yes`,
    [userId],
  );
  return row.yes;
}

/** Stores a new unverified TOTP factor. */
export async function insertFactor(
  sql: Sql,
  factor: { userId: string; friendlyName: string; secret: string },
  options: { now: number },
): Promise<string> {
  const id = crypto.randomUUID();
  await sql.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
       updated_at, secret)
     values ($1, $2, $3, 'totp', 'unverified', to_timestamp($4 / 1000.0),
       to_timestamp($4 / 1000.0), $5)`,
    [id, factor.userId, factor.friendlyName, options.now, factor.secret],
  );
  return id;
}

/** Forgets enrolments never confirmed with a code: a new enrolment replaces them. */
export async function deleteUnverifiedFactors(
  sql: Sql,
  userId: string,
  options: { except?: string } = {},
): Promise<void> {
  await sql.query(
    `delete from auth.mfa_factors where user_id = $1 and status::text = 'unverified'
       and id::text <> coalesce($2, '')`,
    [userId, options.except ?? null],
  );
}

/** Starts a challenge of a factor; its id and expiry (seconds since the epoch). */
export async function insertChallenge(
  sql: Sql,
  factorId: string,
  options: { now: number },
): Promise<{ id: string; expiresAt: number }> {
  const id = crypto.randomUUID();
  await sql.query(
    `with touched as (
       update auth.mfa_factors set last_challenged_at = to_timestamp($3 / 1000.0) where id = $2
     )
     insert into auth.mfa_challenges (id, factor_id, created_at)
     values ($1, $2, to_timestamp($3 / 1000.0))`,
    [id, factorId, options.now],
  );
  return { id, expiresAt: Math.floor((options.now + CHALLENGE_TTL_MS) / 1000) };
}

/** A challenge of the factor still open to an answer: unverified and unexpired. */
export async function openChallenge(
  sql: Sql,
  challenge: { id: string; factorId: string },
  options: { now: number },
): Promise<"open" | "expired" | "missing"> {
  const [row] = await sql.query<{ open: boolean }>(
    `select verified_at is null and created_at > to_timestamp($3 / 1000.0) as open
     from auth.mfa_challenges where id = $1 and factor_id = $2`,
    [challenge.id, challenge.factorId, options.now - CHALLENGE_TTL_MS],
  );
  if (!row) return "missing";
  return row.open ? "open" : "expired";
}

/** Ends a challenge (five wrong codes, or expired). */
export async function deleteChallenge(sql: Sql, id: string): Promise<void> {
  await sql.query(`delete from auth.mfa_challenges where id = $1`, [id]);
}
