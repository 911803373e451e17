/**
 * The one call to a user's Seerr (Overseerr, Jellyseerr): `POST {url}/api/v1/request` with
 * `X-Api-Key` and `{"mediaType":"movie","mediaId":<TMDB id>}`, as Seerr's OpenAPI document
 * describes it, and Seerr's answers turned into ours (docs/trakt.md, "Other apps"). Neither the
 * key nor Seerr's body goes to the log; a Problem carries only Seerr's status and message.
 */
import { Problem } from "@/lib/core/problem.ts";

/** How long Seerr may take to answer. */
const SEERR_TIMEOUT_MS = 10_000;

/** What Seerr did with the request: its id and Seerr's status (1 pending, 2 approved, 3 declined). */
export interface SeerrRequest {
  requestId: number | null;
  status: "pending" | "approved" | "declined" | "requested";
}

const STATUS: Record<number, SeerrRequest["status"]> = {
  1: "pending",
  2: "approved",
  3: "declined",
};

/** Seerr's error words: `message` from its routes, `error` from its API-key check. */
function seerrMessage(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  const text = typeof b.message === "string" ? b.message : b.error;
  return typeof text === "string" && text.trim() ? text.trim().slice(0, 200) : undefined;
}

/** Sends one movie request to the Seerr at `target.url` with its API key. */
export async function requestMovie(
  fetchFn: typeof fetch,
  target: { url: string; apiKey: string },
  options: { tmdbId: number },
): Promise<SeerrRequest> {
  let res: Response;
  try {
    res = await fetchFn(`${target.url.replace(/\/+$/, "")}/api/v1/request`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-api-key": target.apiKey,
      },
      body: JSON.stringify({ mediaType: "movie", mediaId: options.tmdbId }),
      // A redirect would carry the key to wherever it points: it is an answer, not followed.
      redirect: "manual",
      signal: AbortSignal.timeout(SEERR_TIMEOUT_MS),
    });
  } catch {
    throw new Problem(502, "seerr_unreachable", "Your Seerr did not answer; check its URL.");
  }
  const body = await res.json().catch(() => undefined);
  if (res.status === 201 || res.status === 200 || res.status === 202) {
    const b = (body ?? {}) as Record<string, unknown>;
    return {
      requestId: typeof b.id === "number" ? b.id : null,
      status: (typeof b.status === "number" && STATUS[b.status]) || "requested",
    };
  }
  const said = seerrMessage(body);
  if (res.status === 409) {
    throw new Problem(409, "already_requested", said ?? "Seerr already has a request for it.");
  }
  const fromRoute = typeof body === "object" && body !== null && "message" in body;
  if (res.status === 401 || (res.status === 403 && !fromRoute)) {
    // Seerr's API-key check answers 403 {"error"}; its request route answers 403 {"message"}.
    throw new Problem(
      422,
      "seerr_key_refused",
      "Your Seerr refused the API key; save a new one on /account/connections.",
    );
  }
  if (res.status === 403) {
    throw new Problem(422, "seerr_refused", `Your Seerr refused the request: ${said}`);
  }
  throw new Problem(
    502,
    "seerr_failed",
    `Your Seerr answered ${res.status}${said ? `: ${said}` : ""}; check its URL.`,
  );
}
