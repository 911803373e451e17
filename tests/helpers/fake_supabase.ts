/**
 * A fake of the Supabase Auth endpoints the service calls in Supabase mode, on 127.0.0.1, with
 * the response shapes of Supabase Auth (docs/identity.md, "Supabase mode"):
 * `GET /auth/v1/.well-known/jwks.json`, `POST` and `DELETE /auth/v1/admin/users` (service-role key) and
 * `GET /auth/v1/user` (for tokens signed with a legacy HS256 secret). It also signs access
 * tokens as the project would, so tests hold real Supabase-shaped tokens. Its API keys are the new
 * `sb_publishable_...`/`sb_secret_...` keys, or with `keys: "legacy"` the `anon`/`service_role` JWTs
 * signed with the project's legacy secret; each is checked where Supabase checks it (a new key in
 * `apikey` only, a legacy service_role key also as the Bearer token of the admin API).
 */
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import type { Clock } from "@/lib/core/clock.ts";

/** One request the fake received. */
interface SupabaseRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** A user of the fake project. */
interface FakeSupabaseUser {
  id: string;
  email: string;
}

/** A running fake project. */
export interface FakeSupabase extends AsyncDisposable {
  /** The SUPABASE_URL to configure. */
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The HS256 secret of the project's legacy tokens. */
  legacySecret: string;
  requests: SupabaseRequest[];
  users: Map<string, FakeSupabaseUser>;
  /** Signs an access token for `user` with the current signing key (or `options.alg` HS256). */
  sign(
    user: FakeSupabaseUser,
    options?: { alg?: "ES256" | "HS256"; expiresInS?: number },
  ): Promise<string>;
  /** Starts signing with a new key, published alongside the old one. */
  rotateKey(): Promise<void>;
  /** Makes every endpoint answer this status (e.g. 503) until set back to null. */
  failWith: number | null;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: Record<string, unknown>;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = crypto.randomUUID();
  // The shape a Supabase project's JWKS has for an ECC (P-256) signing key.
  const publicJwk = {
    alg: "ES256",
    crv: "P-256",
    ext: true,
    key_ops: ["verify"],
    kid,
    kty: "EC",
    use: "sig",
    ...(await exportJWK(publicKey)),
  };
  return { kid, privateKey, publicJwk };
}

function gotrueUser(user: FakeSupabaseUser, at: string): Record<string, unknown> {
  return {
    id: user.id,
    aud: "authenticated",
    role: "authenticated",
    email: user.email,
    email_confirmed_at: at,
    phone: "",
    confirmed_at: at,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: { email_verified: true },
    identities: [{
      identity_id: crypto.randomUUID(),
      id: user.id,
      user_id: user.id,
      identity_data: {
        email: user.email,
        email_verified: false,
        phone_verified: false,
        sub: user.id,
      },
      provider: "email",
      last_sign_in_at: at,
      created_at: at,
      updated_at: at,
      email: user.email,
    }],
    created_at: at,
    updated_at: at,
    is_anonymous: false,
  };
}

// GoTrue's legacy error body (the service does not send X-Supabase-Api-Version).
function gotrueError(status: number, code: string, msg: string): Response {
  return Response.json({ code: status, error_code: code, msg }, {
    status,
    headers: { "x-sb-error-code": code },
  });
}

// A legacy API key: a long-lived HS256 JWT of the project naming its role, as Supabase made them.
function legacyKey(role: "anon" | "service_role", hmac: Uint8Array): Promise<string> {
  return new SignJWT({ iss: "supabase", ref: "fakeproject", role })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(1_700_000_000)
    .setExpirationTime(2_000_000_000)
    .sign(hmac);
}

/** Starts the fake; `clock` dates the tokens it signs. Dispose with `await using`. */
export async function startFakeSupabase(
  options: { clock: Clock; keys?: "new" | "legacy" },
): Promise<FakeSupabase> {
  const keys: SigningKey[] = [await newKey()];
  const requests: SupabaseRequest[] = [];
  const users = new Map<string, FakeSupabaseUser>();
  const legacySecret = "legacy-jwt-secret-with-at-least-32-characters";
  const hmac = new TextEncoder().encode(legacySecret);
  const legacy = options.keys === "legacy";
  const anonKey = legacy ? await legacyKey("anon", hmac) : "sb_publishable_fake";
  const serviceRoleKey = legacy ? await legacyKey("service_role", hmac) : "sb_secret_fake";
  // The admin API: the secret key in `apikey`; a new key is not a JWT, so one sent as the Bearer
  // token is refused, while a legacy service_role key must be the Bearer token too.
  const isAdmin = (req: Request) => {
    const bearer = req.headers.get("authorization")?.replace(/^Bearer\s+/i, "");
    if (req.headers.get("apikey") !== serviceRoleKey) return false;
    return legacy ? bearer === serviceRoleKey : !bearer?.startsWith("sb_");
  };
  let url = "";
  const state = { failWith: null as number | null };

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    requests.push({
      method: req.method,
      path,
      headers: Object.fromEntries(req.headers),
      body: text ? JSON.parse(text) : null,
    });
    if (state.failWith) return gotrueError(state.failWith, "unexpected_failure", "failing");
    if (req.method === "GET" && path === "/auth/v1/.well-known/jwks.json") {
      return Response.json({ keys: keys.map((k) => k.publicJwk) }, {
        headers: { "cache-control": "public, max-age=600" },
      });
    }
    if (req.method === "POST" && path === "/auth/v1/admin/users") {
      if (!isAdmin(req)) {
        return Response.json({ message: "Invalid API key" }, { status: 401 });
      }
      const body = JSON.parse(text);
      const email = String(body.email).toLowerCase();
      if ([...users.values()].some((u) => u.email === email)) {
        return gotrueError(
          422,
          "email_exists",
          "A user with this email address has already been registered",
        );
      }
      if (String(body.password ?? "").length < 6) {
        return gotrueError(422, "weak_password", "Password should be at least 6 characters.");
      }
      const user = { id: crypto.randomUUID(), email };
      users.set(user.id, user);
      return Response.json(gotrueUser(user, new Date(options.clock.now()).toISOString()));
    }
    const deleting = /^\/auth\/v1\/admin\/users\/([^/]+)$/.exec(path);
    if (req.method === "DELETE" && deleting) {
      if (!isAdmin(req)) {
        return Response.json({ message: "Invalid API key" }, { status: 401 });
      }
      if (!users.delete(decodeURIComponent(deleting[1]))) {
        return gotrueError(404, "user_not_found", "User not found");
      }
      return Response.json({});
    }
    if (req.method === "GET" && path === "/auth/v1/user") {
      if (req.headers.get("apikey") !== anonKey && req.headers.get("apikey") !== serviceRoleKey) {
        return Response.json({ message: "Invalid API key" }, { status: 401 });
      }
      const token = req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
      try {
        const { payload } = await jwtVerify(token, hmac, {
          algorithms: ["HS256"],
          currentDate: new Date(options.clock.now()),
        });
        const user = users.get(String(payload.sub));
        if (!user) {
          return gotrueError(403, "user_not_found", "User from sub claim in JWT does not exist");
        }
        return Response.json(gotrueUser(user, new Date(options.clock.now()).toISOString()));
      } catch {
        return gotrueError(403, "bad_jwt", "invalid JWT: unable to parse or verify signature");
      }
    }
    return Response.json({ message: "no Route matched with those values" }, { status: 404 });
  });
  url = `http://127.0.0.1:${server.addr.port}`;

  const close = () => server.shutdown();
  return {
    url,
    anonKey,
    serviceRoleKey,
    legacySecret,
    requests,
    users,
    get failWith() {
      return state.failWith;
    },
    set failWith(v) {
      state.failWith = v;
    },
    async sign(user, signOptions = {}) {
      const iat = Math.floor(options.clock.now() / 1000);
      const jwt = new SignJWT({
        email: user.email,
        phone: "",
        app_metadata: { provider: "email", providers: ["email"] },
        user_metadata: { email_verified: true },
        role: "authenticated",
        aal: "aal1",
        amr: [{ method: "password", timestamp: iat }],
        session_id: crypto.randomUUID(),
        is_anonymous: false,
      })
        .setSubject(user.id)
        .setAudience("authenticated")
        .setIssuer(`${url}/auth/v1`)
        .setIssuedAt(iat)
        .setExpirationTime(iat + (signOptions.expiresInS ?? 3600));
      if (signOptions.alg === "HS256") {
        return await jwt.setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(hmac);
      }
      const key = keys.at(-1)!;
      return await jwt.setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
        .sign(key.privateKey);
    },
    async rotateKey() {
      keys.push(await newKey());
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
