/**
 * A real OpenID Connect provider for the tests: the `oidc-provider` package (the certified
 * Node.js implementation) on 127.0.0.1, with its development login and consent pages, signing
 * ID tokens with a key the test holds, so a test can also forge what a rogue provider would send.
 */
import Provider from "oidc-provider";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { createServer, type Server } from "node:http";

/** An account the provider signs in. */
interface IdpAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** A running provider. */
export interface Idp extends AsyncDisposable {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's private signing key (a test signs forged tokens with it, or not). */
  privateJwk: JWK;
  accounts: Map<string, IdpAccount>;
}

/** Starts a provider whose one client may return to `redirectUri`. */
export async function startIdp(redirectUri: string): Promise<Idp> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const privateJwk = {
    ...(await exportJWK(privateKey)),
    kid: "idp-key-1",
    alg: "RS256",
    use: "sig",
  };
  const accounts = new Map<string, IdpAccount>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "movies-test";
  const clientSecret = "movies-test-secret-0123456789";
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    }],
    jwks: { keys: [privateJwk] },
    cookies: { keys: ["test-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The claims go into the ID token itself (the service reads no userinfo).
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...account }) };
    },
    // deno-lint-ignore no-explicit-any
  } as any);
  server.on("request", provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    privateJwk,
    accounts,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A cookie jar's fetch that does not follow redirects (the test follows them itself). */
export function browserFetch() {
  const jar = new Map<string, string>();
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const origin = new URL(url).origin;
    const cookie = [...jar].filter(([k]) => k.startsWith(`${origin} `))
      .map(([k, v]) => `${k.slice(origin.length + 1)}=${v}`).join("; ");
    const headers = new Headers(init.headers);
    if (cookie) headers.set("cookie", cookie);
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(";");
      const [name, ...value] = pair.split("=");
      jar.set(`${origin} ${name.trim()}`, value.join("="));
    }
    return res;
  };
}
