/**
 * Password hashes as Supabase Auth stores them: bcrypt, cost 10, in auth.users.encrypted_password,
 * so the rows can move to Supabase Auth unchanged.
 */
import bcrypt from "bcryptjs";

/** bcrypt's cost factor (Supabase Auth uses 10 too). */
const BCRYPT_COST = 10;

/** Hashes a password for auth.users.encrypted_password. */
export async function hashPassword(password: string): Promise<string> {
  return await bcrypt.hash(password, BCRYPT_COST);
}

// A cost-10 hash of a random string nobody kept: checking against it costs what a real check
// costs. A constant, so even the first miss of a process takes no extra bcrypt hash.
const DUMMY_HASH = "$2b$10$5nek1x1ztxBPVYbdt6sxTOUzFzzDvm3PifVlWDzSwqxkklCb9c42O";

/**
 * Checks `password` against `hash`. With no hash (no such user) it still spends one bcrypt
 * comparison on a throwaway hash, so the answer time does not tell whether the email exists.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash || !hash.startsWith("$2")) {
    await bcrypt.compare(password, DUMMY_HASH);
    return false;
  }
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}
