/**
 * What the sign-in and signup limits count a client address by (the address itself is read
 * at the HTTP edge, lib/http/client_address.ts).
 */

/** The address requests with no known peer share. */
export const UNKNOWN_ADDRESS = "unknown";

// The eight 16-bit groups of an IPv6 address, or null when it is not one.
function ipv6Groups(address: string): number[] | null {
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const parse = (half: string): number[] | null => {
    if (!half) return [];
    const groups: number[] = [];
    for (const part of half.split(":")) {
      if (/^\d+\.\d+\.\d+\.\d+$/.test(part)) {
        const [a, b, c, d] = part.split(".").map(Number);
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
        groups.push(parseInt(part, 16));
      } else return null;
    }
    return groups;
  };
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...Array(missing).fill(0), ...tail];
}

/**
 * What the per-address limits count by: an IPv6 address by its /64, since one subscriber is
 * handed a whole /64 and could otherwise pick a fresh address for every attempt; an
 * IPv4-mapped IPv6 address as its IPv4 address; anything else as it is.
 */
export function limitSubject(address: string): string {
  const groups = address.includes(":") ? ipv6Groups(address.replace(/%.*$/, "")) : null;
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}
