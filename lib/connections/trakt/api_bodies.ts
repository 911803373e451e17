/** The bodies of the website's /api/trakt routes (docs/trakt.md, "Sign-in"). */
import { z } from "zod";
import { MAX_REDIRECT_URIS, OOB_REDIRECT } from "./apps.ts";

// A redirect URI is the out-of-band page or an absolute URL; script and data URLs never are.
const redirectUri = z.string().trim().min(1).max(2000).refine((value) => {
  if (value === OOB_REDIRECT) return true;
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return !["javascript:", "data:", "vbscript:", "file:"].includes(protocol);
}, "An absolute URL or urn:ietf:wg:oauth:2.0:oob.");

/** POST /api/trakt/activate. */
export const ActivateBody = z.object({
  code: z.string().trim().min(1).max(40),
  approve: z.boolean(),
});

/** GET /api/trakt/activate's query. */
export const ActivateQuery = z.object({ code: z.string().trim().min(1).max(40) });

/** POST /api/trakt/apps. */
export const CreateAppBody = z.object({
  name: z.string().trim().min(1).max(100),
  redirectUris: z.array(redirectUri).max(MAX_REDIRECT_URIS).default([]),
});

/** POST /api/trakt/authorize: what the consent page sends. */
export const AuthorizeBody = z.object({
  clientId: z.string().trim().min(1).max(200),
  redirectUri: z.string().trim().min(1).max(2000),
  state: z.string().max(2000).optional(),
  approve: z.boolean(),
});
