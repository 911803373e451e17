/**
 * The islands' JSON API client: adds `Authorization: Bearer <access token>` from the
 * supabase-js session and turns problem documents (RFC 9457) into ApiError.
 */
import { accessToken } from "./live_session.ts";

/** A failed API call: the problem's status, code and detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Headers = new Headers(),
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Calls `path` of the site's API; `auth` sends the session's token (401 ApiError without one). */
export async function api<T>(
  path: string,
  options: { method?: string; body?: unknown; auth?: boolean } = {},
): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.auth) {
    const token = await accessToken();
    if (!token) throw new ApiError(401, "unauthorized", "Please sign in again.");
    headers.authorization = `Bearer ${token}`;
  }
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, "network_error", "The site could not be reached. Check your connection.");
  }
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    throw new ApiError(
      response.status,
      typeof body?.code === "string" ? body.code : "http_" + response.status,
      typeof body?.detail === "string" ? body.detail : `The request failed (${response.status}).`,
      response.headers,
    );
  }
  return { data: body as T, headers: response.headers };
}
