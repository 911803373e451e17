/**
 * A user's Seerr (docs/trakt.md, "Other apps"): its URL and API key saved (the key sealed, never
 * shown again, never logged), and the "Request" button's call.
 */
import { z } from "zod";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import { seal, type SealKeySource, unseal } from "@/lib/platform/kv/seal.ts";
import { requestMovie, type SeerrRequest } from "./client.ts";

/** What the owner sees of their Seerr: the URL and when it was saved, never the key. */
interface SeerrSettings {
  url: string | null;
  savedAt: string | null;
}

/** PUT /api/me/seerr: Seerr's base URL (http or https, no credentials) and its API key. */
export const SeerrBody = z.strictObject({
  url: z.string().trim().max(500).pipe(z.url({ protocol: /^https?$/ })).refine((u) => {
    // Zod runs this after a failed URL check too: an unparsable value is refused here as well.
    const parsed = URL.canParse(u) ? new URL(u) : undefined;
    return parsed && !parsed.username && !parsed.password && !parsed.search && !parsed.hash;
  }, "a base URL without credentials, query or fragment"),
  apiKey: z.string().trim().min(1).max(200),
});

/** POST /api/me/seerr/requests: the film, by catalog id (the TMDB id Seerr takes). */
export const SeerrRequestBody = z.strictObject({
  catalogId: z.int().min(1).max(2147483647),
});

/** What the Seerr routes and pages call. */
export interface SeerrService {
  settings(userId: string): Promise<SeerrSettings>;
  /** Saves the URL and the key (sealed), replacing any saved before. */
  save(userId: string, body: z.infer<typeof SeerrBody>): Promise<SeerrSettings>;
  /** Forgets the URL and the key. */
  remove(userId: string): Promise<void>;
  /** Sends the film to the user's Seerr; 409 `seerr_not_configured` when none is saved. */
  request(userId: string, catalogId: number): Promise<SeerrRequest>;
}

/** Builds the service. */
export function createSeerrService(deps: AppDeps): SeerrService {
  const { store, clock, kv, config } = deps;
  const keys: SealKeySource = { kv, configured: config.secretsKey };
  const read = (userId: string) =>
    store.asUser(
      userId,
      (tx) =>
        tx.query<{ url: string; keyCipher: string; savedAt: Date | string }>(
          `select url, key_cipher as "keyCipher", saved_at as "savedAt"
           from public.user_seerr where user_id = (select auth.uid())`,
        ),
    );
  const shape = (row?: { url: string; savedAt: Date | string }): SeerrSettings =>
    row
      ? { url: row.url, savedAt: new Date(row.savedAt).toISOString() }
      : { url: null, savedAt: null };
  return {
    async settings(userId) {
      return shape((await read(userId))[0]);
    },
    async save(userId, body) {
      const url = body.url.replace(/\/+$/, "");
      const cipher = await seal(keys, body.apiKey);
      const now = new Date(clock.now()).toISOString();
      await store.asUser(userId, (tx) =>
        tx.query(
          `insert into public.user_seerr (user_id, url, key_cipher, saved_at)
           values ((select auth.uid()), $1, $2, $3)
           on conflict (user_id) do update
             set url = excluded.url, key_cipher = excluded.key_cipher, saved_at = excluded.saved_at`,
          [url, cipher, now],
        ));
      return { url, savedAt: now };
    },
    async remove(userId) {
      await store.asUser(
        userId,
        (tx) => tx.query(`delete from public.user_seerr where user_id = (select auth.uid())`),
      );
    },
    async request(userId, catalogId) {
      const [row] = await read(userId);
      if (!row) {
        throw new Problem(
          409,
          "seerr_not_configured",
          "Save your Seerr's URL and API key on /account/connections first.",
        );
      }
      const apiKey = await unseal(keys, row.keyCipher);
      if (apiKey === undefined) {
        // Sealed under another key (SECRETS_KEY changed): only saving the key again helps.
        throw new Problem(
          409,
          "seerr_not_configured",
          "The saved Seerr API key can no longer be read; save it again on /account/connections.",
        );
      }
      return await requestMovie(deps.fetch, { url: row.url, apiKey }, { tmdbId: catalogId });
    },
  };
}
