/** A verified code raises the session to aal2, as Supabase Auth does it. */
import type { Sql } from "@/lib/platform/store/mod.ts";

/**
 * In one transaction: the challenge is answered, the factor verified, this session raised to
 * `aal2` (with the factor that raised it), the user's other sessions below aal2 ended (they
 * were only a password away), and enrolments never confirmed forgotten.
 */
export async function upgradeSession(
  tx: Sql,
  target: { userId: string; sessionId: string; factorId: string; challengeId: string },
  options: { now: number },
): Promise<void> {
  const { userId, sessionId, factorId, challengeId } = target;
  await tx.query(
    `update auth.mfa_challenges set verified_at = to_timestamp($2 / 1000.0) where id = $1`,
    [challengeId, options.now],
  );
  await tx.query(
    `update auth.mfa_factors set status = 'verified', updated_at = to_timestamp($2 / 1000.0)
     where id = $1`,
    [factorId, options.now],
  );
  await tx.query(
    `update auth.sessions set aal = 'aal2', factor_id = $3, updated_at = to_timestamp($4 / 1000.0)
     where id = $1 and user_id = $2`,
    [sessionId, userId, factorId, options.now],
  );
  await tx.query(
    `delete from auth.sessions where user_id = $1 and id <> $2
       and coalesce(aal::text, 'aal1') <> 'aal2'`,
    [userId, sessionId],
  );
  await tx.query(
    `delete from auth.mfa_factors where user_id = $1 and status::text = 'unverified'`,
    [userId],
  );
}
