/**
 * Two-factor backup codes (docs/identity.md, "Backup codes"): 10 one-time codes per TOTP factor
 * for the day the phone is lost, each 10 characters of an alphabet without look-alikes, entered
 * in the code step's field instead of a TOTP code. Only their SHA-256 (salted with the user's
 * id) is stored, and each is spent by one atomic update, so two requests never both use it.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

// Codes given at enrolment and at each replacement.
const BACKUP_CODE_COUNT = 10;

// Characters of a code.
const BACKUP_CODE_LENGTH = 10;

// No 0/O, 1/I/L look-alikes: 31 symbols, about 4.95 bits each, about 49.5 bits a code.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** Ten fresh codes, uniformly drawn (rejection sampling keeps every symbol equally likely). */
export function newBackupCodes(): string[] {
  const codes: string[] = [];
  while (codes.length < BACKUP_CODE_COUNT) {
    let code = "";
    while (code.length < BACKUP_CODE_LENGTH) {
      for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
        // 248 = 8 × 31: bytes at or above it would favour the first symbols.
        if (byte < 248 && code.length < BACKUP_CODE_LENGTH) code += ALPHABET[byte % 31];
      }
    }
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

/**
 * What the user typed as a backup code, in its stored form (upper case, spaces and dashes
 * dropped), or null when it cannot be one (a TOTP code is 6 digits).
 */
export function asBackupCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, "").toUpperCase();
  if (code.length !== BACKUP_CODE_LENGTH) return null;
  return [...code].every((ch) => ALPHABET.includes(ch)) ? code : null;
}

async function codeHash(userId: string, code: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${userId}:${code}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Replaces the factor's codes (used or not) with `codes`. */
export async function storeBackupCodes(
  sql: Sql,
  factor: { userId: string; factorId: string; codes: string[] },
  options: { now: number },
): Promise<void> {
  const hashes = await Promise.all(factor.codes.map((c) => codeHash(factor.userId, c)));
  await sql.query(`delete from public.mfa_backup_codes where factor_id = $1`, [factor.factorId]);
  await sql.query(
    `insert into public.mfa_backup_codes (id, user_id, factor_id, code_hash, created_at)
     select gen_random_uuid(), $1, $2, h, to_timestamp($4 / 1000.0)
     from unnest($3::text[]) as h`,
    [factor.userId, factor.factorId, hashes, options.now],
  );
}

/**
 * Spends one unused code of the user's verified factors: the factor it belongs to, or null
 * (unknown, already used, or of an enrolment never confirmed). One update marks it used, so of
 * two requests with the same code only one gets a row back.
 */
export async function spendBackupCode(
  sql: Sql,
  userId: string,
  options: { code: string; now: number },
): Promise<string | null> {
  const [row] = await sql.query<{ factor_id: string }>(
    `update public.mfa_backup_codes b set used_at = to_timestamp($3 / 1000.0)
     from auth.mfa_factors f
     where b.user_id = $1 and b.code_hash = $2 and b.used_at is null
       and f.id = b.factor_id and f.status::text = 'verified'
     returning b.factor_id::text as factor_id`,
    [userId, await codeHash(userId, options.code), options.now],
  );
  return row?.factor_id ?? null;
}

/** How many of the factor's codes are still unused. */
export async function backupCodesLeft(sql: Sql, factorId: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `select count(*)::int as n from public.mfa_backup_codes where factor_id = $1 and used_at is null`,
    [factorId],
  );
  return row.n;
}
