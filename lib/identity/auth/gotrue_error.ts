/**
 * The errors of Supabase Auth (GoTrue): the /auth/v1 routes answer GoTrue's error shape
 * instead of problem documents, so supabase-js reports them as it does against Supabase.
 * The wire format is the HTTP layer's (lib/http/gotrue_response.ts); onError renders it.
 */

/** An error of a GoTrue endpoint: HTTP status, GoTrue `error_code` and message. */
export class GoTrueError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /** Members GoTrue adds to this error's body (`weak_password: {reasons}`). */
  extra: Record<string, unknown> = {};

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "GoTrueError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** The 400 of a wrong email or password (identical for both, so neither is revealed). */
export function invalidCredentials(): GoTrueError {
  return new GoTrueError(400, "invalid_credentials", "Invalid login credentials");
}

/** GoTrue's 422 `weak_password`, with its reasons (`length`, or `strength` for the estimate). */
export function weakPassword(message: string, reasons: string[]): GoTrueError {
  const error = new GoTrueError(422, "weak_password", message);
  error.extra = { weak_password: { reasons } };
  return error;
}
