/**
 * `DELETE /api/account`: the user and every row of theirs go in one transaction. Rows are found
 * through the foreign keys to auth.users (public.delete_user_rows), so a table added later is
 * covered once it has `user_id uuid references auth.users (id) on delete cascade`
 * (tests/account_tables_test.ts fails for one that has not). Deno KV entries keyed by user id go
 * by the prefixes lib/platform/kv/user_keys.ts lists, where the features build those keys. With
 * Supabase Auth the project's admin API deletes the user once the rows are gone, and its
 * unexpired access tokens are refused from then on (deleted_users.ts).
 */
import type { Kv } from "@/lib/platform/kv/kv.ts";
import { z } from "zod";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import { lockForTransaction } from "@/lib/platform/store/mod.ts";
import { USER_KV_PREFIXES } from "@/lib/platform/kv/user_keys.ts";
import { markUserDeleted } from "./deleted_users.ts";

function isDeadlock(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    (error as { code?: unknown }).code === "40P01";
}

/** The exact words the body must carry. */
export const DELETE_CONFIRMATION = "delete my account";

/** The body of DELETE /api/account. */
export const deleteAccountBodySchema = z.object({
  confirm: z.literal(DELETE_CONFIRMATION).meta({
    description: `Must be exactly "${DELETE_CONFIRMATION}".`,
  }),
});

/**
 * Checks the parsed body (or why it could not be read); anything but the exact confirmation is
 * 400 `confirmation_required`.
 */
export function parseDeleteConfirmation(body: { value: unknown } | { unreadable: string }): void {
  if ("value" in body && deleteAccountBodySchema.safeParse(body.value).success) return;
  const why = "unreadable" in body ? `${body.unreadable} ` : "";
  throw new Problem(
    400,
    "confirmation_required",
    `${why}To delete the account, send {"confirm":"${DELETE_CONFIRMATION}"}.`,
  );
}

/**
 * Deletes the account. `deleteIdentity` (Supabase mode) deletes the user at the identity
 * provider after the rows are gone; without it the user row goes in the same transaction.
 */
export async function deleteAccount(
  deps: AppDeps,
  userId: string,
  options: { deleteIdentity?: (id: string) => Promise<void> } = {},
): Promise<void> {
  const remove = () =>
    deps.store.transaction(async (tx) => {
      // The user's own locks first, the ones their list writes and dismissals take: a write
      // under way finishes before the rows go, and a later one finds the user gone (401).
      // Without them, 4 of 10 deletions racing writes on PostgreSQL ended in a deadlock.
      // The list lock, then the dismissal lock: the order every writer takes them in.
      await lockForTransaction(tx, "userEntries", userId);
      await lockForTransaction(tx, "userDismissals", userId);
      await tx.query("select public.delete_user_rows($1)", [userId]);
      // Sessions, refresh tokens and reset links follow by cascade.
      if (!options.deleteIdentity) await tx.query("delete from auth.users where id = $1", [userId]);
    });
  try {
    await remove();
  } catch (error) {
    // A writer that takes no user lock (a sign-in, a stored recommendation) can still meet the
    // deletion in the other order: PostgreSQL ends one side, so the deletion tries once more.
    if (!isDeadlock(error)) throw error;
    await remove();
  }
  if (options.deleteIdentity) {
    // Not inside the transaction: Supabase's own delete cascades into our tables and would
    // wait on the rows this transaction holds. A failure leaves the user without rows, able
    // to try again.
    await options.deleteIdentity(userId);
    await markUserDeleted(deps.kv, userId);
  }
  await deleteUserKv(deps.kv, userId);
}

async function deleteUserKv(kv: Kv, userId: string): Promise<void> {
  for (const prefix of USER_KV_PREFIXES) {
    for await (const entry of kv.list({ prefix: [prefix, userId] })) await kv.delete(entry.key);
  }
}
