/**
 * The one error type of the service. A `Problem` carries its HTTP status and a stable
 * snake_case code from where it arises; `onError` in app.ts renders it as RFC 9457
 * `application/problem+json`.
 */

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  499: "Client Closed Request",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Options of a Problem beyond status, code and detail. */
interface ProblemOptions {
  /** Headers the response must carry (`Allow`, `Retry-After`, rate-limit headers...). */
  headers?: Record<string, string>;
  /** Extra members of the problem body (RFC 9457 extension members). */
  extensions?: Record<string, unknown>;
  /** The underlying error; logged, never rendered. */
  cause?: unknown;
}

/** An HTTP error with a status and a stable code, rendered as a problem document. */
export class Problem extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(status: number, code: string, detail: string, options: ProblemOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "Problem";
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }

  /** The RFC 9457 body: type, title, status, detail, code, plus extension members. */
  toJSON(): Record<string, unknown> {
    return {
      ...this.extensions,
      type: `/problems/${this.code}`,
      title: TITLES[this.status] ?? "Error",
      status: this.status,
      detail: this.message,
      code: this.code,
    };
  }
}

/** Renders a Problem as an `application/problem+json` response. */
export function problemResponse(problem: Problem, requestId?: string): Response {
  const body = problem.toJSON();
  if (requestId) body.requestId = requestId;
  const headers = new Headers(problem.headers);
  headers.set("content-type", "application/problem+json; charset=utf-8");
  return new Response(JSON.stringify(body), { status: problem.status, headers });
}

/** The problem every unexpected failure becomes; it says nothing about the cause. */
export function internalError(cause?: unknown): Problem {
  return new Problem(500, "internal_error", "An unexpected error occurred.", { cause });
}
