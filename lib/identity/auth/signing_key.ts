/**
 * The built-in identity provider's ES256 key pair: read from AUTH_SIGNING_KEY (a private
 * JWK, for several instances sharing one key), else generated once into $DATA_DIR.
 */
import { exportJWK, generateKeyPair, importJWK, type JWK } from "jose";

/** A signing key with its public half and key id. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

async function fromPrivateJwk(jwk: JWK): Promise<SigningKey> {
  // Only the key's own members: a WebCrypto export carries key_ops ["sign"] and ext, which
  // would make the public half unimportable and would be published in the JWKS.
  const { kty, crv, x, y, d } = jwk;
  const kid = jwk.kid ?? (await thumbprintKid({ kty, crv, x, y }));
  const publicJwk: JWK = { kty, crv, x, y, kid, alg: "ES256", use: "sig", key_ops: ["verify"] };
  return {
    kid,
    privateKey:
      (await importJWK({ kty, crv, x, y, d, alg: "ES256" }, "ES256")) as unknown as CryptoKey,
    publicKey: (await importJWK(publicJwk, "ES256")) as unknown as CryptoKey,
    publicJwk,
  };
}

async function thumbprintKid(pub: JWK): Promise<string> {
  const data = new TextEncoder().encode(
    JSON.stringify({ crv: pub.crv, kty: pub.kty, x: pub.x, y: pub.y }),
  );
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(hash.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Generates a fresh private JWK (for tests and for AUTH_SIGNING_KEY). */
export async function generatePrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await thumbprintKid(jwk), alg: "ES256" };
}

/** Loads the signing key from `jwkJson`, else from `$dataDir/auth-signing-key.json`, creating it once. */
export async function loadSigningKey(
  options: { jwkJson?: string; dataDir?: string },
): Promise<SigningKey> {
  if (options.jwkJson) return await fromPrivateJwk(JSON.parse(options.jwkJson));
  const dir = options.dataDir ?? "./data";
  const path = `${dir}/auth-signing-key.json`;
  try {
    return await fromPrivateJwk(JSON.parse(await Deno.readTextFile(path)));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dir, { recursive: true });
  const jwk = await generatePrivateJwk();
  try {
    // createNew: when two instances start at once, the first file wins and both use it.
    await Deno.writeTextFile(path, JSON.stringify(jwk), { createNew: true, mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  return await fromPrivateJwk(JSON.parse(await Deno.readTextFile(path)));
}
