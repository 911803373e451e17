/**
 * KV values as JSON for PostgreSQL's jsonb (docs/coordination.md): plain JSON as it is, and
 * what JSON cannot say as a tagged object `{"$kv": tag, "v": ...}` (KvU64, bigint, bytes,
 * dates, undefined, numbers JSON lacks, strings jsonb cannot hold, and an object of the
 * caller's that itself has a `$kv` field). Anything else is refused, as Deno KV refuses what it
 * cannot serialise.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const TAG = "$kv";

function tagged(tag: string, v?: Json): Json {
  return v === undefined ? { [TAG]: tag } : { [TAG]: tag, v };
}

function bytesText(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function encodeObject(value: object): Json {
  if (value instanceof Deno.KvU64) return tagged("u64", value.value.toString());
  if (value instanceof Uint8Array) return tagged("bytes", bytesText(value));
  if (value instanceof Date) return tagged("date", value.getTime());
  if (Array.isArray(value)) return Array.from(value, encodeValue);
  if (!isPlainObject(value)) {
    throw new TypeError(`A KV value cannot hold a ${value.constructor?.name ?? "object"}`);
  }
  const out: Record<string, Json> = {};
  for (const [name, field] of Object.entries(value)) {
    if (name.includes("\0")) throw new TypeError("A KV value's field name cannot hold NUL");
    out[name] = encodeValue(field);
  }
  return TAG in value ? tagged("object", out) : out;
}

/** `value` as JSON jsonb stores (throws TypeError for what KV cannot hold). */
export function encodeValue(value: unknown): Json {
  switch (typeof value) {
    case "undefined":
      return tagged("undefined");
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : tagged("number", String(value));
    case "bigint":
      return tagged("bigint", value.toString());
    case "string":
      // jsonb refuses \u0000, and a lone surrogate is no valid UTF-8.
      return value.includes("\0") || !value.isWellFormed()
        ? tagged("chars", Array.from(value, (_, i) => value.charCodeAt(i)))
        : value;
    case "object":
      return value === null ? null : encodeObject(value);
  }
  throw new TypeError(`A KV value cannot hold a ${typeof value}`);
}

function decodeTagged(tag: unknown, v: Json): unknown {
  switch (tag) {
    case "u64":
      return new Deno.KvU64(BigInt(v as string));
    case "bigint":
      return BigInt(v as string);
    case "bytes":
      return Uint8Array.from(atob(v as string), (c) => c.charCodeAt(0));
    case "date":
      return new Date(v as number);
    case "undefined":
      return undefined;
    case "number":
      return Number(v);
    case "chars":
      return String.fromCharCode(...(v as number[]));
    case "object":
      return decodeFields(v as Record<string, Json>);
  }
  throw new TypeError(`Unknown KV value tag ${JSON.stringify(tag)}`);
}

function decodeFields(json: Record<string, Json>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(json)) out[name] = decodeValue(field);
  return out;
}

/** The value `json` encodes (what `encodeValue` made). */
export function decodeValue(json: Json): unknown {
  if (json === null || typeof json !== "object") return json;
  if (Array.isArray(json)) return json.map(decodeValue);
  if (TAG in json) return decodeTagged(json[TAG], json.v ?? null);
  return decodeFields(json);
}
