/**
 * KV keys as text for PostgreSQL (docs/coordination.md): each part is a type tag, its payload
 * and a \x01 end, so one key's text starts with a prefix's text exactly when the key starts
 * with that prefix, and byte order (collation "C") is Deno KV's key order (bytes, strings,
 * bigints, numbers, booleans; each in its own order). Text never holds \x00, so the three
 * lowest characters of a string are escaped behind \x02, in order.
 */
import type { KvKey } from "../kv/kv.ts";

const END = "\x01";
const ESCAPE = "\x02";
const TAG = { bytes: "1", string: "2", bigint: "3", number: "4", boolean: "5" } as const;

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function unhex(text: string): Uint8Array {
  return Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));
}

// IEEE 754 bits made to sort as the numbers do: negatives inverted, positives' sign bit set.
function numberText(n: number): string {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, n === 0 ? 0 : n);
  if (bytes[0] & 0x80) bytes.forEach((b, i) => (bytes[i] = ~b & 0xff));
  else bytes[0] |= 0x80;
  return hex(bytes);
}

function numberOf(text: string): number {
  const bytes = unhex(text);
  if (bytes[0] & 0x80) bytes[0] &= 0x7f;
  else bytes.forEach((b, i) => (bytes[i] = ~b & 0xff));
  return new DataView(bytes.buffer).getFloat64(0);
}

// Length first (longer magnitudes sort further from zero), then the digits; negatives mirrored.
function bigintText(n: bigint): string {
  const digits = (n < 0n ? -n : n).toString(16);
  if (n >= 0n) return "p" + digits.length.toString(16).padStart(4, "0") + digits;
  const mirrored = Array.from(digits, (d) => (15 - parseInt(d, 16)).toString(16)).join("");
  return "n" + (0xffff - digits.length).toString(16).padStart(4, "0") + mirrored;
}

function bigintOf(text: string): bigint {
  const digits = text.slice(5);
  if (text[0] === "p") return BigInt("0x" + digits);
  return -BigInt("0x" + Array.from(digits, (d) => (15 - parseInt(d, 16)).toString(16)).join(""));
}

function escapeString(s: string): string {
  if (!s.isWellFormed()) throw new TypeError("A KV key string must be well-formed Unicode");
  if (!s.includes("\x00") && !s.includes(END) && !s.includes(ESCAPE)) return s;
  let out = "";
  for (const c of s) {
    const code = c.charCodeAt(0);
    out += code <= 2 ? ESCAPE + String.fromCharCode(code + 1) : c;
  }
  return out;
}

function encodePart(part: Deno.KvKeyPart): string {
  if (part instanceof Uint8Array) return TAG.bytes + hex(part) + END;
  switch (typeof part) {
    case "string":
      return TAG.string + escapeString(part) + END;
    case "number":
      return TAG.number + numberText(part) + END;
    case "bigint":
      return TAG.bigint + bigintText(part) + END;
    case "boolean":
      return TAG.boolean + (part ? "1" : "0") + END;
  }
  throw new TypeError(`A KV key part cannot be a ${typeof part}`);
}

/** The text of `key`. */
export function encodeKey(key: KvKey): string {
  return key.map(encodePart).join("");
}

/** The key `text` encodes (what `encodeKey` made). */
export function decodeKey(text: string): KvKey {
  const parts: Deno.KvKeyPart[] = [];
  let i = 0;
  while (i < text.length) {
    const tag = text[i++];
    let payload = "";
    while (text[i] !== END) {
      if (i >= text.length) throw new TypeError("A KV key's text ends inside a part");
      if (text[i] === ESCAPE) payload += String.fromCharCode(text.charCodeAt(++i) - 1);
      else payload += text[i];
      i++;
    }
    i++;
    if (tag === TAG.bytes) parts.push(unhex(payload));
    else if (tag === TAG.string) parts.push(payload);
    else if (tag === TAG.number) parts.push(numberOf(payload));
    else if (tag === TAG.bigint) parts.push(bigintOf(payload));
    else parts.push(payload === "1");
  }
  return parts;
}

/**
 * The bounds of the keys strictly under `prefix`: greater than its text, less than its text
 * with the last end raised by one (no bound for the empty prefix).
 */
export function prefixRange(prefix: KvKey): { after: string; before: string } | undefined {
  if (!prefix.length) return undefined;
  const after = encodeKey(prefix);
  return { after, before: after.slice(0, -1) + ESCAPE };
}
