/**
 * Password hashes as Supabase Auth stores them: bcrypt, cost 10, in auth.users.encrypted_password,
 * so the rows can move to Supabase Auth unchanged.
 */
import bcrypt from "bcryptjs";

/** bcrypt's cost factor (Supabase Auth uses 10 too). */
export const BCRYPT_COST = 10;

/** Hashes a password for auth.users.encrypted_password. */
export async function hashPassword(password: string): Promise<string> {
  return await bcrypt.hash(password, BCRYPT_COST);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks `password` against `hash`. With no hash (no such user) it still spends one bcrypt
 * comparison on a throwaway hash, so the answer time does not tell whether the email exists.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash || !hash.startsWith("$2")) {
    dummyHash ??= bcrypt.hash(crypto.randomUUID(), BCRYPT_COST);
    await bcrypt.compare(password, await dummyHash);
    return false;
  }
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}
