/**
 * Generated requests for the fuzz test (tests/fuzz_test.ts) and `deno task chaos`: a seeded
 * generator, so a failure names a seed and a request that reproduce it.
 */

/** A request to send, as plain data (printable when it fails). */
interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The tokens and ids a generator mixes in with the garbage. */
interface FuzzWorld {
  /** Route patterns with their methods, e.g. from routes.gen.ts (`:id`s are filled in). */
  routes: { pattern: string; methods: string[] }[];
  /** A valid access token of a real user. */
  token: string;
  adminToken: string;
  /** A refresh token of a real session (some refresh grants use it). */
  refreshToken?: string;
}

/** mulberry32: a small seeded PRNG (reproducible runs). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = [
  "",
  " ",
  "a",
  "0",
  "-1",
  "1.5",
  "1e3",
  "2147483648",
  "99999999999999999999",
  "NaN",
  "null",
  "true",
  "[]",
  "{}",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "' or 1=1 --",
  "%00",
  "\u0000",
  "../../etc/passwd",
  "🎬 été",
  "\ud800",
  "x".repeat(300),
  "Dune",
  "user@example.test",
  "correct horse battery staple",
];

const KEYS = [
  "catalogId",
  "movie",
  "email",
  "password",
  "refresh_token",
  "pages",
  "captchaToken",
  "confirm",
  "__proto__",
  "constructor",
  "q",
];

const QUERY_KEYS = [
  "q",
  "page",
  "year",
  "refresh",
  "deep",
  "grant_type",
  "scope",
  "type",
  "token",
  "redirect_to",
  "next",
];

/** Builds requests from `world` with the PRNG `rand`. */
export function fuzzer(world: FuzzWorld, rand: () => number): () => FuzzRequest {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  // A lone surrogate cannot be URI-encoded: send the bytes UTF-8 would give it, as a client might.
  const encode = (s: string) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return "%ED%A0%80";
    }
  };
  const int = (n: number) => Math.floor(rand() * n);
  const scalar = (): unknown =>
    pick([
      () => null,
      () => rand() < 0.5,
      () => int(2 ** 31) * (rand() < 0.2 ? -1 : 1),
      () => pick([0, 1, -1, 2147483647, 2147483648, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER]),
      () => pick(STRINGS),
    ])();
  const value = (depth: number): unknown => {
    if (depth > 3 || rand() < 0.5) return scalar();
    if (rand() < 0.4) return Array.from({ length: int(4) }, () => value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: int(4) }, () => [pick(KEYS), value(depth + 1)]),
    );
  };
  const body = (): string | undefined =>
    pick([
      () => undefined,
      () => JSON.stringify(value(0)),
      () => JSON.stringify({ catalogId: scalar() }),
      () => JSON.stringify({ movie: { catalogId: scalar() } }),
      () => JSON.stringify({ email: pick(STRINGS), password: pick(STRINGS) }),
      () => JSON.stringify({ refresh_token: rand() < 0.3 ? world.refreshToken : pick(STRINGS) }),
      () => JSON.stringify({ pages: scalar() }),
      () => pick(["{", "not json", '{"catalogId":', "\u0000\u0001", "[".repeat(5000)]),
      () => JSON.stringify({ catalogId: 1, pad: "x".repeat(17 * 1024) }),
      () => "catalogId=1&email=a%40b",
    ])();
  const segment = (): string =>
    pick([
      () => String(int(1000)),
      () => String(pick([0, -1, 2147483647, 2147483648, 84892, 550])),
      () => encode(pick(STRINGS)),
      () => pick(["%", "%zz", "%2e%2e", "1.0", "1e3", "0x10", " 1", "abc"]),
    ])();
  const METHODS = ["GET", "POST", "DELETE", "PUT", "PATCH", "HEAD", "OPTIONS"];
  // Mostly a method the route takes (so the request reaches its handler), sometimes any.
  const target = (): { method: string; path: string } => {
    const roll = rand();
    if (roll < 0.1) {
      return { method: pick(METHODS), path: pick(["/api/", "/auth/v1/", "/"]) + segment() };
    }
    if (roll < 0.15) {
      const path = pick(["//api//watched", "/api/watched/", "/API/WATCHED", "/static/x"]);
      return { method: pick(METHODS), path };
    }
    const route = pick(world.routes);
    const method = rand() < 0.85 && route.methods.length ? pick(route.methods) : pick(METHODS);
    return { method, path: route.pattern.replace(/:[a-z]+/gi, segment) };
  };
  const query = (): string => {
    if (rand() < 0.4) return "";
    const parts = Array.from({ length: 1 + int(3) }, () => {
      const key = pick(QUERY_KEYS);
      const v = key === "grant_type" && rand() < 0.6
        ? pick(["password", "refresh_token", "pkce"])
        : rand() < 0.1
        ? pick(["%", "%E0%A4%A"])
        : encode(pick(STRINGS));
      return `${key}=${v}`;
    });
    return `?${parts.join("&")}`;
  };
  const headers = (): Record<string, string> => {
    const h: Record<string, string> = {};
    const auth = rand();
    if (auth < 0.35) h.authorization = `Bearer ${world.token}`;
    else if (auth < 0.5) h.authorization = `Bearer ${pick(STRINGS).replace(/[^\x20-\x7e]/g, "")}`;
    else if (auth < 0.55) h.authorization = "Basic Zm9vOmJhcg==";
    if (rand() < 0.1) h["x-admin-token"] = rand() < 0.5 ? world.adminToken : "guess";
    if (rand() < 0.3) h["x-supabase-api-version"] = "2024-01-01";
    if (rand() < 0.2) {
      const session = rand() < 0.5
        ? encodeURIComponent(JSON.stringify({ access_token: world.token }))
        : pick(["%7B", "{", "garbage", encodeURIComponent(JSON.stringify(value(0)))]);
      h.cookie = `movies-session=${session}`;
    }
    if (rand() < 0.7) {
      h["content-type"] = pick([
        "application/json",
        "text/plain",
        "multipart/form-data",
        "application/x-www-form-urlencoded",
      ]);
    }
    return h;
  };
  return () => {
    const { method, path } = target();
    const request: FuzzRequest = { method, path: path + query(), headers: headers() };
    if (method !== "GET" && method !== "HEAD") {
      const b = body();
      if (b !== undefined) request.body = b;
    }
    return request;
  };
}

/** Stack frames, file URLs and database error text: none may reach a client. */
const LEAK =
  /\n\s+at \S|file:\/\/|\.ts:\d+:\d+|syntax error at or near|violates .* constraint|relation "|SQLSTATE|duplicate key|PGlite|postgres\.js/i;

/** What is wrong with one answer (empty: nothing). */
export async function judge(request: FuzzRequest, res: Response): Promise<string[]> {
  const text = request.method === "HEAD" ? "" : await res.text();
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}: ${text.slice(0, 200)}`);
  if (LEAK.test(text)) problems.push(`leak: ${text.match(LEAK)?.[0]}`);
  // As the server sees it: the URL parser resolves dot segments (`/api/%2e%2e` is `/`).
  const path = new URL(request.path, "http://localhost").pathname;
  if (/^\/api(\/|$)/.test(path) && res.status >= 400 && request.method !== "HEAD") {
    const type = res.headers.get("content-type") ?? "";
    if (!type.startsWith("application/problem+json")) problems.push(`not a problem: ${type}`);
    else {
      const body = JSON.parse(text);
      for (const field of ["type", "title", "status", "detail", "code"]) {
        if (!(field in body)) problems.push(`problem without ${field}`);
      }
      if (body.status !== res.status) problems.push(`problem status ${body.status}`);
    }
  }
  return problems;
}
