/** The admin's invites (POST/GET /api/admin/invites, DELETE /api/admin/invites/:code). */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import {
  DEFAULT_INVITE_DAYS,
  deleteInvite,
  insertInvite,
  type Invite,
  inviteBodySchema,
  listInvites,
} from "./invites.ts";

/** A new invite as POST answers it: the code and the signup link that carries it. */
interface CreatedInvite {
  code: string;
  url: string;
  email: string | null;
  expiresAt: string;
}

/** The invite operations. */
export interface InviteService {
  /** Checks the parsed body (undefined: empty) and stores a new invite. */
  create(body: unknown): Promise<CreatedInvite>;
  list(): Promise<Invite[]>;
  /** Deletes an invite; 404 `invite_not_found` when there is none. */
  remove(code: string): Promise<void>;
}

/** Builds the invite service. */
export function createInviteService(deps: AppDeps): InviteService {
  return {
    async create(body) {
      const parsed = inviteBodySchema.safeParse(body ?? {});
      if (!parsed.success) {
        throw new Problem(
          400,
          "invalid_body",
          'The body must be empty or {"email"?: an email, "expiresInDays"?: 1 to 30}.',
        );
      }
      const invite = await insertInvite(deps.store, {
        email: parsed.data.email,
        days: parsed.data.expiresInDays ?? DEFAULT_INVITE_DAYS,
      }, { now: deps.clock.now() });
      const url = `${deps.config.siteUrl}/signup?invite=${encodeURIComponent(invite.code)}`;
      return { code: invite.code, url, email: invite.email, expiresAt: invite.expiresAt };
    },
    list: () => listInvites(deps.store, { now: deps.clock.now() }),
    async remove(code) {
      if (code.length > 64 || !(await deleteInvite(deps.store, code))) {
        throw new Problem(404, "invite_not_found", "There is no invite with this code.");
      }
    },
  };
}
