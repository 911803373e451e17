/**
 * Where an alert may go (docs/alerts.md, "Targets"): an `http` or `https` URL whose host resolves
 * only to public addresses, unless ALERT_PRIVATE_TARGETS=allow; checked when the channel is saved
 * and again before each delivery (DNS may have changed). A target is shown and logged masked.
 */

/** Resolves a host name to addresses; Deno.resolveDns in production, a table in tests. */
export type ResolveHost = (host: string) => Promise<string[]>;

/** The system resolver: A and AAAA records together (a name with neither resolves to none). */
export const systemResolveHost: ResolveHost = async (host) => {
  const [v4, v6] = await Promise.allSettled([
    Deno.resolveDns(host, "A"),
    Deno.resolveDns(host, "AAAA"),
  ]);
  return [
    ...(v4.status === "fulfilled" ? v4.value : []),
    ...(v6.status === "fulfilled" ? v6.value : []),
  ];
};

/** The target's scheme and host only: what the API shows and the logs carry. */
export function maskTarget(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return "(invalid URL)";
  }
}

function ipv4Private(parts: number[]): boolean {
  const [a, b] = parts;
  return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || (a === 192 && b === 0 && parts[2] === 0) ||
    (a === 198 && (b === 18 || b === 19)) || a >= 224;
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const nums = parts.map(Number);
  return nums.every((n) => n <= 255) ? nums : undefined;
}

/** Expands an IPv6 address to its eight 16-bit groups; undefined when it is not one. */
function parseIpv6(text: string): number[] | undefined {
  let body = text.replace(/^\[|\]$/g, "").split("%")[0].toLowerCase();
  // A trailing dotted IPv4 (::ffff:10.0.0.1) becomes two groups.
  const dotted = body.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const v4 = parseIpv4(dotted[1]);
    if (!v4) return undefined;
    body = body.slice(0, -dotted[1].length) +
      `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

/** Whether `address` (an IPv4 or IPv6 literal) is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const v4 = parseIpv4(address);
  if (v4) return ipv4Private(v4);
  const g = parseIpv6(address);
  if (!g) return true; // not an address we understand: never treated as public
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): judged as the IPv4 inside.
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (mapped || nat64) return ipv4Private([g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255]);
  if ((g[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true; // documentation
  return false;
}

/** How a target is checked: the resolver and whether private addresses are allowed. */
export interface TargetPolicy {
  resolveHost: ResolveHost;
  allowPrivate: boolean;
}

/**
 * Why `raw` may not be a target (a sentence naming only its host), or undefined when it may:
 * a malformed URL, another scheme, credentials in it, or a host with a non-public address.
 */
export async function targetProblem(
  raw: string,
  policy: TargetPolicy,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "the URL is malformed";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return "the URL must start with https:// or http://";
  }
  if (url.username || url.password) return "the URL must not carry a user name or password";
  if (policy.allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = parseIpv4(host) !== undefined || host.includes(":");
  let addresses: string[];
  try {
    addresses = literal ? [host] : await policy.resolveHost(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return `${url.host} does not resolve`;
  if (addresses.some(isPrivateAddress)) {
    return `${url.host} is a private address (the operator may allow them: ALERT_PRIVATE_TARGETS=allow)`;
  }
  return undefined;
}
