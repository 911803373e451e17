/**
 * A fake Seerr (Overseerr, Jellyseerr) on 127.0.0.1, built from Seerr's own OpenAPI document
 * (jellyseerr-api.yml, `POST /request` under the server `{server}/api/v1`): the `X-Api-Key`
 * header, the body `{"mediaType": "movie"|"tv", "mediaId": number, ...}` with both required, and
 * 201 with a `MediaRequest` (`id`, `status`: 1 pending, 2 approved, 3 declined, `media`, ...).
 * Its error answers are those of Seerr's code: the API-key check's 403 `{"status","error"}`, and
 * the request route's `{"message"}` with 403 (no permission, quota, blocklist), 409 (already
 * requested) and 500 (anything else).
 */

/** A request the fake received. */
interface SeerrCall {
  path: string;
  apiKey: string | null;
  contentType: string | null;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** A running fake Seerr. */
interface FakeSeerr extends AsyncDisposable {
  /** The base URL a user saves (with `basePath` when one was given). */
  url: string;
  apiKey: string;
  calls: SeerrCall[];
  /** TMDB ids Seerr refuses (403 blocklisted). */
  blocklisted: Set<number>;
  /** Requests left before the user's movie quota is spent (403); unlimited when null. */
  quota: number | null;
  /** Whether new requests are approved at once (the user has AUTO_APPROVE). */
  autoApprove: boolean;
  /** Whether the user may request movies at all. */
  mayRequest: boolean;
  close(): Promise<void>;
}

/** Starts a fake Seerr answering under `basePath` (as behind a reverse proxy); dispose it. */
export function startFakeSeerr(options: { apiKey?: string; basePath?: string } = {}): FakeSeerr {
  const apiKey = options.apiKey ?? "seerr-api-key-0123456789";
  const base = (options.basePath ?? "").replace(/\/+$/, "");
  const calls: SeerrCall[] = [];
  const requested = new Set<number>();
  let nextId = 1;
  const fake = {
    blocklisted: new Set<number>(),
    quota: null as number | null,
    autoApprove: false,
    mayRequest: true,
  };
  const message = (status: number, text: string) => Response.json({ message: text }, { status });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      // A proxy's redirect in front of Seerr (a test that the key does not follow it).
      if (url.pathname === `${base}/moved/api/v1/request`) {
        return new Response(null, {
          status: 307,
          headers: { location: `${base}/api/v1/request` },
        });
      }
      if (url.pathname !== `${base}/api/v1/request`) return message(404, "Not Found");
      if (request.method !== "POST") return message(404, "Not Found");
      const body = await request.json().catch(() => undefined);
      const call: SeerrCall = {
        path: url.pathname,
        apiKey: request.headers.get("x-api-key"),
        contentType: request.headers.get("content-type"),
        body,
      };
      calls.push(call);
      // Seerr's isAuthenticated(): a missing or wrong key is no user at all.
      if (call.apiKey !== apiKey) {
        return Response.json({
          status: 403,
          error: "You do not have permission to access this endpoint",
        }, { status: 403 });
      }
      const valid = body && typeof body === "object" &&
        (body.mediaType === "movie" || body.mediaType === "tv") &&
        typeof body.mediaId === "number";
      if (!valid) return message(500, "Invalid request body.");
      if (!fake.mayRequest) {
        return message(403, "You do not have permission to make movie requests.");
      }
      if (fake.blocklisted.has(body.mediaId)) return message(403, "This media is blocklisted.");
      if (requested.has(body.mediaId)) {
        return message(409, "Request for this media already exists.");
      }
      if (fake.quota !== null) {
        if (fake.quota <= 0) return message(403, "Movie Quota exceeded.");
        fake.quota -= 1;
      }
      requested.add(body.mediaId);
      const at = new Date().toISOString();
      const status = fake.autoApprove ? 2 : 1;
      return Response.json({
        id: nextId++,
        status,
        media: {
          id: body.mediaId + 1000,
          tmdbId: body.mediaId,
          mediaType: "movie",
          status: fake.autoApprove ? 3 : 2,
          createdAt: at,
          updatedAt: at,
        },
        createdAt: at,
        updatedAt: at,
        requestedBy: { id: 1, email: "anna@example.com", createdAt: at, updatedAt: at },
        modifiedBy: null,
        is4k: false,
      }, { status: 201 });
    },
  );
  const close = () => server.shutdown();
  return Object.assign(fake, {
    url: `http://127.0.0.1:${server.addr.port}${base}`,
    apiKey,
    calls,
    close,
    [Symbol.asyncDispose]: close,
  });
}
