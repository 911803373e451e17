/**
 * A Web Push service on 127.0.0.1 (RFC 8030), as FCM, Mozilla's autopush and Apple's service
 * behave for a sender: it serves HTTPS (push endpoints are always https; the certificate is a
 * throwaway one made with `openssl`, and `fetch` trusts it), VERIFIES the VAPID `Authorization`
 * (RFC 8292: `vapid t=<JWT>, k=<key>`, ES256 over the key in `k`, `aud` the endpoint's origin,
 * `exp` in the future and at most 24 h ahead, `sub` a mailto: or https: contact, and `k` the
 * applicationServerKey the subscription was made with), requires `TTL` and
 * `Content-Encoding: aes128gcm`, and DECRYPTS the body (RFC 8291 over RFC 8188) with the
 * subscription's private key and auth secret, which the test made as a browser does.
 * It answers 201 with a Location, or the status the test asks for (404, 410, 500...).
 */

/** A browser's side of one subscription: what it sends the server, and its secrets. */
interface FakeSubscription {
  /** What `PushSubscription.toJSON()` gives (without expirationTime). */
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
  id: string;
}

/** One message the service accepted (or refused), decrypted. */
interface PushDelivery {
  subscriptionId: string;
  status: number;
  /** Why it was refused (400/401/403), empty when the request was valid. */
  refusal: string;
  headers: Headers;
  /** The decrypted payload text; empty when it could not be decrypted. */
  text: string;
  /** The VAPID JWT's claims. */
  claims: Record<string, unknown>;
}

/** A running fake push service. */
export interface FakePushService extends AsyncDisposable {
  /** `https://127.0.0.1:<port>`. */
  origin: string;
  /** A fetch that trusts the fake's certificate (pass it as the test app's fetch). */
  fetch: typeof fetch;
  /** Subscribes a new "browser" with the server's VAPID public key (base64url). */
  subscribe(applicationServerKey: string): Promise<FakeSubscription>;
  /** Every request the service received, in order. */
  deliveries: PushDelivery[];
  /** Answer `status` to valid requests for `subscriptionId` (every one when omitted) from now on. */
  answer(status: number, subscriptionId?: string): void;
  close(): Promise<void>;
}

interface Browser {
  keys: CryptoKeyPair;
  publicRaw: Uint8Array<ArrayBuffer>;
  auth: Uint8Array<ArrayBuffer>;
  applicationServerKey: string;
}

const text = new TextEncoder();

function fromBase64Url(value: string): Uint8Array<ArrayBuffer> {
  const b64 = value.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
}

function encodeBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function hkdf(
  salt: Uint8Array<ArrayBuffer>,
  ikm: Uint8Array<ArrayBuffer>,
  info: Uint8Array<ArrayBuffer>,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, length * 8),
  );
}

/** RFC 8291 §3.4 and RFC 8188 §2: the plaintext of an aes128gcm body for `browser`. */
async function decrypt(body: Uint8Array<ArrayBuffer>, browser: Browser): Promise<string> {
  const salt = body.slice(0, 16);
  const rs = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const idLength = body[20];
  const senderRaw = body.slice(21, 21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not the 65 of a P-256 key`);
  if (rs < 18) throw new Error(`record size ${rs} is below 18`);
  const senderKey = await crypto.subtle.importKey(
    "raw",
    senderRaw,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const shared = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: "ECDH", public: senderKey },
      browser.keys.privateKey,
      256,
    ),
  );
  const keyInfo = concat(text.encode("WebPush: info\0"), browser.publicRaw, senderRaw);
  const ikm = await hkdf(browser.auth, shared, keyInfo, 32);
  const cek = await hkdf(salt, ikm, text.encode("Content-Encoding: aes128gcm\0"), 16);
  const baseNonce = await hkdf(salt, ikm, text.encode("Content-Encoding: nonce\0"), 12);
  const aes = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const records = body.slice(21 + idLength);
  const plain: Uint8Array[] = [];
  for (let seq = 0, at = 0; at < records.length; seq++, at += rs) {
    const nonce = baseNonce.slice();
    const view = new DataView(nonce.buffer);
    view.setUint32(8, view.getUint32(8) ^ seq);
    const record = new Uint8Array(
      await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, aes, records.slice(at, at + rs)),
    );
    // Padding: the delimiter (2 on the last record, 1 before it) and then zeros.
    let end = record.length - 1;
    while (end >= 0 && record[end] === 0) end--;
    const last = at + rs >= records.length;
    if (record[end] !== (last ? 2 : 1)) throw new Error("bad padding delimiter");
    plain.push(record.slice(0, end));
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(concat(...plain));
}

function jsonPart(part: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(fromBase64Url(part)));
}

/** RFC 8292 §2-3: the refusal, or "" when the Authorization is a valid VAPID one for `origin`. */
async function checkVapid(
  authorization: string,
  origin: string,
  browser: Browser,
): Promise<{ refusal: string; claims: Record<string, unknown> }> {
  const match = /^vapid\s+(.+)$/i.exec(authorization);
  if (!match) return { refusal: "no vapid Authorization", claims: {} };
  const params = new Map(
    match[1].split(",").map((p) => p.trim().split("=", 2) as [string, string]),
  );
  const jwt = params.get("t") ?? "";
  const k = params.get("k") ?? "";
  const [head, payload, signature] = jwt.split(".");
  if (!head || !payload || !signature) return { refusal: "t is not a JWT", claims: {} };
  const claims = jsonPart(payload);
  const header = jsonPart(head);
  if (header.alg !== "ES256") return { refusal: `alg ${header.alg}`, claims };
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase64Url(k),
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  ).catch(() => undefined);
  if (!key) return { refusal: "k is not a P-256 public key", claims };
  const valid = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    fromBase64Url(signature),
    text.encode(`${head}.${payload}`),
  );
  if (!valid) return { refusal: "the JWT's signature does not verify with k", claims };
  if (claims.aud !== origin) return { refusal: `aud ${claims.aud} is not ${origin}`, claims };
  const now = Date.now() / 1000;
  const exp = Number(claims.exp);
  if (!(exp > now)) return { refusal: "exp has passed", claims };
  if (exp > now + 24 * 60 * 60) return { refusal: "exp is more than 24 h ahead", claims };
  if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub)) {
    return { refusal: `sub ${claims.sub} is not mailto: or https:`, claims };
  }
  // A subscription is bound to the key it was made with (RFC 8292 §4): FCM answers 403.
  if (k !== browser.applicationServerKey) {
    return { refusal: "k is not the subscription's key", claims };
  }
  return { refusal: "", claims };
}

let certificate: Promise<{ cert: string; key: string }> | undefined;

/** A self-signed certificate for 127.0.0.1, made once per test file. */
function makeCertificate(): Promise<{ cert: string; key: string }> {
  return certificate ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "fake-push-" });
    try {
      const { success, stderr } = await new Deno.Command("openssl", {
        args: [
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-keyout",
          `${dir}/key.pem`,
          "-out",
          `${dir}/cert.pem`,
          "-days",
          "2",
          "-subj",
          "/CN=127.0.0.1",
          "-addext",
          "subjectAltName=IP:127.0.0.1",
          "-addext",
          "basicConstraints=critical,CA:FALSE",
        ],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (!success) throw new Error(`openssl failed: ${new TextDecoder().decode(stderr)}`);
      return {
        cert: await Deno.readTextFile(`${dir}/cert.pem`),
        key: await Deno.readTextFile(`${dir}/key.pem`),
      };
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  })();
}

/** Starts the service; close it with `await using`. */
export async function startFakePushService(): Promise<FakePushService> {
  const { cert, key } = await makeCertificate();
  const browsers = new Map<string, Browser>();
  const deliveries: PushDelivery[] = [];
  const answers = new Map<string, number>();
  let next = 0;
  let origin = "";
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert, key, onListen: () => {} },
    async (request): Promise<Response> => {
      const url = new URL(request.url);
      const id = /^\/push\/([\w-]+)$/.exec(url.pathname)?.[1] ?? "";
      const browser = browsers.get(id);
      if (request.method !== "POST" || !browser) return new Response(null, { status: 404 });
      const body = new Uint8Array(await request.arrayBuffer());
      const record = (status: number, refusal: string, claims = {}, plain = "") => {
        deliveries.push({
          subscriptionId: id,
          status,
          refusal,
          headers: new Headers(request.headers),
          text: plain,
          claims,
        });
        return new Response(refusal, { status });
      };
      if (!/^\d+$/.test(request.headers.get("ttl") ?? "")) return record(400, "no TTL");
      const vapid = await checkVapid(request.headers.get("authorization") ?? "", origin, browser);
      if (vapid.refusal) return record(403, vapid.refusal, vapid.claims);
      if (request.headers.get("content-encoding") !== "aes128gcm") {
        return record(415, "Content-Encoding is not aes128gcm", vapid.claims);
      }
      let plain: string;
      try {
        plain = await decrypt(body, browser);
      } catch (error) {
        return record(400, `cannot decrypt: ${(error as Error).message}`, vapid.claims);
      }
      const status = answers.get(id) ?? answers.get("*") ?? 201;
      deliveries.push({
        subscriptionId: id,
        status,
        refusal: "",
        headers: new Headers(request.headers),
        text: plain,
        claims: vapid.claims,
      });
      return new Response(null, {
        status,
        headers: status === 201 ? { location: `${origin}/message/${deliveries.length}` } : {},
      });
    },
  );
  origin = `https://127.0.0.1:${server.addr.port}`;
  const client = Deno.createHttpClient({ caCerts: [cert] });
  const trusted: typeof fetch = (input, init) => fetch(input, { ...init, client });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    client.close();
    await server.shutdown();
  };
  return {
    origin,
    fetch: trusted,
    deliveries,
    async subscribe(applicationServerKey) {
      const keys = await crypto.subtle.generateKey(
        { name: "ECDH", namedCurve: "P-256" },
        true,
        ["deriveBits"],
      ) as CryptoKeyPair;
      const publicRaw = new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey));
      const auth = crypto.getRandomValues(new Uint8Array(16));
      const id = `sub${++next}-${crypto.randomUUID()}`;
      browsers.set(id, { keys, publicRaw, auth, applicationServerKey });
      return {
        id,
        json: {
          endpoint: `${origin}/push/${id}`,
          keys: { p256dh: encodeBase64Url(publicRaw), auth: encodeBase64Url(auth) },
        },
      };
    },
    answer(status, subscriptionId = "*") {
      answers.set(subscriptionId, status);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
