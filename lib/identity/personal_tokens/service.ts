/**
 * Personal access tokens (docs/connections.md): a person makes a token with a name, a scope
 * (`read`: GET only; `write`: everything) and an optional expiry, sees its value once, lists
 * its tokens with their last use, and revokes them. The API takes one as a Bearer credential
 * (lib/http/middleware/require_user.ts), except where the account itself is managed.
 */
import type { AuthUser } from "../auth/mod.ts";
import { unauthorized } from "../auth/unauthorized.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { lockForTransaction } from "@/lib/platform/store/mod.ts";
import { Problem } from "@/lib/core/problem.ts";
import { isWellFormed, newTokenValue, tokenDigest } from "./secret.ts";

/** Most tokens one user may hold. */
export const MAX_TOKENS = 20;
/** What a token may do: `read` answers GET (and HEAD) only. */
type TokenScope = "read" | "write";

/** A token as its owner sees it (never its value, after the first answer). */
interface PersonalToken {
  id: string;
  name: string;
  scope: TokenScope;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** The user a token acts for, and what it may do. */
interface TokenHolder {
  /** The token's id, for what counts per token (the /trakt limits). */
  id: string;
  user: AuthUser;
  scope: TokenScope;
}

// last_used_at is written at most once a minute, so a busy script does not write on every call.
const TOUCH_MS = 60_000;

// Serialises one user's creations, so two at once cannot both pass the count at 19.

const INSERT_SQL = `insert into public.user_api_tokens
    (id, user_id, name, scope, token_hash, created_at, expires_at)
  select $1, (select auth.uid()), $2, $3, $4, $5::timestamptz, $6::timestamptz
   where (select count(*) from public.user_api_tokens
           where user_id = (select auth.uid())) < ${MAX_TOKENS}
  returning id`;

const COLUMNS = `id, name, scope, created_at as "createdAt", expires_at as "expiresAt",
  last_used_at as "lastUsedAt"`;

// One statement: find the token and its user, and note its use when the last note is old.
const VERIFY_SQL = `with hit as (
    select t.id, t.user_id, t.scope, t.expires_at, t.last_used_at, u.email
      from public.user_api_tokens t join auth.users u on u.id = t.user_id
     where t.token_hash = $1
  ), touched as (
    update public.user_api_tokens t set last_used_at = $2::timestamptz
      from hit
     where t.id = hit.id
       and (hit.expires_at is null or hit.expires_at > $2::timestamptz)
       and (hit.last_used_at is null or hit.last_used_at <= $2::timestamptz - $3::interval)
  )
  select id, user_id as "userId", email, scope, expires_at as "expiresAt" from hit`;

function iso(value: unknown): string | null {
  return value === null || value === undefined ? null : new Date(value as string).toISOString();
}

function shape(row: Record<string, unknown>): PersonalToken {
  return {
    id: String(row.id),
    name: String(row.name),
    scope: row.scope as TokenScope,
    createdAt: iso(row.createdAt)!,
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
  };
}

/** The personal tokens of the app. */
export interface PersonalTokenService {
  /** Makes a token; its value is in the answer and nowhere else, ever. */
  create(
    userId: string,
    input: { name: string; scope: TokenScope; expiresInDays?: number },
  ): Promise<PersonalToken & { token: string }>;
  /** The user's tokens, newest first. */
  list(userId: string): Promise<PersonalToken[]>;
  /** Revokes a token of the user's; another user's or an unknown id is a 404. */
  revoke(userId: string, id: string): Promise<void>;
  /** The holder of a token value; a 401 for an unknown, revoked or expired one. */
  verify(value: string): Promise<TokenHolder>;
}

/** Builds the service over the store and the clock. */
export function createPersonalTokenService(deps: AppDeps): PersonalTokenService {
  const { store, clock } = deps;
  return {
    async create(userId, input) {
      const now = clock.now();
      const value = newTokenValue();
      const id = crypto.randomUUID();
      const expiresAt = input.expiresInDays === undefined
        ? null
        : new Date(now + input.expiresInDays * 86_400_000).toISOString();
      const createdAt = new Date(now).toISOString();
      const inserted = await store.asUser(userId, async (tx) => {
        await lockForTransaction(tx, "personalTokens", userId);
        return await tx.query(INSERT_SQL, [
          id,
          input.name,
          input.scope,
          await tokenDigest(value),
          createdAt,
          expiresAt,
        ]);
      });
      if (!inserted.length) {
        throw new Problem(
          400,
          "too_many_tokens",
          `You can have at most ${MAX_TOKENS} personal access tokens; revoke one first.`,
        );
      }
      return {
        id,
        name: input.name,
        scope: input.scope,
        token: value,
        createdAt,
        expiresAt,
        lastUsedAt: null,
      };
    },

    async list(userId) {
      const rows = await store.asUser(userId, (tx) =>
        tx.query(
          `select ${COLUMNS} from public.user_api_tokens
            where user_id = (select auth.uid()) order by created_at desc, id`,
        ));
      return rows.map(shape);
    },

    async revoke(userId, id) {
      const deleted = await store.asUser(userId, (tx) =>
        tx.query(
          `delete from public.user_api_tokens
            where id = $1 and user_id = (select auth.uid()) returning id`,
          [id],
        ));
      if (!deleted.length) throw new Problem(404, "not_found", "You have no token with this id.");
    },

    async verify(value) {
      if (!isWellFormed(value)) throw unauthorized(undefined, { invalidToken: true });
      const now = clock.now();
      const [row] = await store.query<
        { id: string; userId: string; email: string; scope: TokenScope; expiresAt: unknown }
      >(VERIFY_SQL, [
        await tokenDigest(value),
        new Date(now).toISOString(),
        `${TOUCH_MS} milliseconds`,
      ]);
      if (!row) {
        throw unauthorized("This personal access token is unknown or revoked.", {
          invalidToken: true,
        });
      }
      if (row.expiresAt !== null && new Date(row.expiresAt as string).getTime() <= now) {
        throw unauthorized("This personal access token has expired.", { invalidToken: true });
      }
      return { id: String(row.id), user: { id: row.userId, email: row.email }, scope: row.scope };
    },
  };
}
