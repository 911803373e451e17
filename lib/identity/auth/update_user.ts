/**
 * `PUT /auth/v1/user` of the built-in provider (supabase-js `updateUser`): a new password under
 * the password rule, and user metadata. A new password ends the user's other sessions and any
 * reset link still out; the caller's own session stays.
 */
import { z } from "zod";
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { VerifiedToken } from "./access_token.ts";
import { GoTrueError, weakPassword } from "./gotrue_error.ts";
import { passwordShapeFault, passwordStrengthFault } from "./password_rule.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { dropRecoveryTokens } from "./recovery_tokens.ts";
import { endSessions } from "./sessions.ts";
import { findUserById, updateUserRow, type UserRow } from "./users.ts";

// Bodies are at most 16 KiB (lib/http/read_body.ts). Other members (nonce, code_challenge) are ignored.
const updateBody = z.object({
  email: z.string().optional(),
  password: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

const userGone = () =>
  new GoTrueError(403, "user_not_found", "User from sub claim in JWT does not exist");

/** Checks a new password as GoTrue answers: 422 `weak_password` or 400 `validation_failed`. */
async function checkNewPassword(password: string, email: string): Promise<void> {
  const shape = passwordShapeFault(password);
  if (shape?.kind === "too_short") throw weakPassword(shape.message, ["length"]);
  if (shape) throw new GoTrueError(400, "validation_failed", shape.message);
  const weak = await passwordStrengthFault(password, { email });
  if (weak) throw weakPassword(weak.message, ["strength"]);
}

/** Applies an update of the bearer (`claims`) and returns the updated row. */
export async function updateUser(
  deps: AppDeps,
  claims: VerifiedToken,
  body: unknown,
): Promise<UserRow> {
  const parsed = updateBody.safeParse(body);
  if (!parsed.success) {
    throw new GoTrueError(400, "validation_failed", "Could not read User update params");
  }
  const { email, password, data } = parsed.data;
  const user = await findUserById(deps.store, claims.id);
  if (!user) throw userGone();
  if (email !== undefined && email.trim().toLowerCase() !== user.email.toLowerCase()) {
    throw new GoTrueError(
      422,
      "email_change_not_supported",
      "Changing the email address is not supported on this server.",
    );
  }
  let passwordHash: string | undefined;
  if (password !== undefined) {
    await checkNewPassword(password, user.email);
    if (await verifyPassword(password, user.encrypted_password)) {
      throw new GoTrueError(
        422,
        "same_password",
        "New password should be different from the old password.",
      );
    }
    passwordHash = await hashPassword(password);
  }
  const now = deps.clock.now();
  const updated = await deps.store.transaction(async (tx) => {
    const row = await updateUserRow(tx, user.id, { passwordHash, data, now });
    if (row && passwordHash) {
      await endSessions(tx, user.id, { scope: "others", sessionId: claims.sessionId });
      await dropRecoveryTokens(tx, user.id);
    }
    return row;
  });
  if (!updated) throw userGone();
  return updated;
}
