/**
 * Invites of SIGNUP=invite (public.signup_invites): made by the admin, optionally bound to one
 * email, expiring, used once. An invite is claimed in one statement before the account is made,
 * so two signups with one code cannot both pass; a failed signup gives its claim back.
 */
import { z } from "zod";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** Days an invite lasts unless the admin says otherwise, and the most it may. */
export const DEFAULT_INVITE_DAYS = 7;
const MAX_INVITE_DAYS = 30;

/** The body of POST /api/admin/invites. */
export const inviteBodySchema = z.strictObject({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()).optional().meta({
    description: "Only this email may sign up with the invite.",
  }),
  expiresInDays: z.number().int().min(1).max(MAX_INVITE_DAYS).optional().meta({
    description: `Days until it expires (default ${DEFAULT_INVITE_DAYS}).`,
  }),
});

/** Where an invite stands. */
type InviteStatus = "pending" | "used" | "expired";

/** One invite as the admin list shows it. */
export interface Invite {
  code: string;
  email: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  status: InviteStatus;
}

interface InviteRow {
  code: string;
  email: string | null;
  created_at: Date | string;
  expires_at: Date | string;
  used_at: Date | string | null;
}

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A new code: 20 characters of an alphabet without look-alikes (about 100 bits). */
function newInviteCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
}

const iso = (v: Date | string) => new Date(v).toISOString();

function toInvite(row: InviteRow, now: number): Invite {
  const expired = new Date(row.expires_at).getTime() <= now;
  return {
    code: row.code,
    email: row.email,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    usedAt: row.used_at === null ? null : iso(row.used_at),
    status: row.used_at !== null ? "used" : expired ? "expired" : "pending",
  };
}

/** Stores a new invite. */
export async function insertInvite(
  sql: Sql,
  invite: { email?: string; days: number },
  options: { now: number },
): Promise<Invite> {
  const [row] = await sql.query<InviteRow>(
    `insert into public.signup_invites (code, email, created_at, expires_at)
     values ($1, $2, to_timestamp($3 / 1000.0), to_timestamp($4 / 1000.0))
     returning code, email, created_at, expires_at, used_at`,
    [newInviteCode(), invite.email ?? null, options.now, options.now + invite.days * 86_400_000],
  );
  return toInvite(row, options.now);
}

/** Every invite, newest first (at most 500: an admin list, not a feed). */
export async function listInvites(sql: Sql, options: { now: number }): Promise<Invite[]> {
  const rows = await sql.query<InviteRow>(
    `select code, email, created_at, expires_at, used_at from public.signup_invites
     order by created_at desc, code limit 500`,
  );
  return rows.map((row) => toInvite(row, options.now));
}

/** Deletes an invite; false when there is none with this code. */
export async function deleteInvite(sql: Sql, code: string): Promise<boolean> {
  const rows = await sql.query(`delete from public.signup_invites where code = $1 returning 1`, [
    code,
  ]);
  return rows.length > 0;
}

/**
 * Marks the invite used for `email` when it is unused, unexpired and unbound or bound to that
 * email; false otherwise (which of these is not told: the code is a secret). An email the
 * identity provider did not verify (`emailVerified: false`) never satisfies a bound invite.
 */
export async function claimInvite(
  sql: Sql,
  claim: { code: string; email: string; emailVerified?: boolean },
  options: { now: number },
): Promise<boolean> {
  const rows = await sql.query(
    `update public.signup_invites set used_at = to_timestamp($3 / 1000.0)
     where code = $1 and used_at is null and expires_at > to_timestamp($3 / 1000.0)
       and (email is null or (email = lower($2) and $4::boolean))
     returning 1`,
    [claim.code, claim.email, options.now, claim.emailVerified ?? true],
  );
  return rows.length > 0;
}

/** Ties a claimed invite to the account it made, or gives the claim back when none was made. */
export async function settleInvite(sql: Sql, code: string, userId: string | null): Promise<void> {
  if (userId === null) {
    await sql.query(`update public.signup_invites set used_at = null where code = $1`, [code]);
  } else {
    await sql.query(`update public.signup_invites set used_by = $2 where code = $1`, [
      code,
      userId,
    ]);
  }
}
