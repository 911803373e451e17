/**
 * An incremental JSON reader for history files (docs/history.md): a single `JSON.parse` of a
 * 20 MiB Trakt export held the event loop for seconds. The reader walks only the containers
 * the exports' shapes are made of (the document itself and the arrays directly inside it);
 * each value below them (a Trakt entry, an export's watched entry) is found by a scan and
 * parsed on its own, and the slicer gives the event loop a turn between values. Nesting and
 * a value's size are bounded; the result equals `JSON.parse` for every document within them.
 */
import type { Slicer } from "./slices.ts";

/** The longest single value (an entry) the reader parses, as for a CSV row. */
export const MAX_VALUE_CHARS = 4 * 1024 * 1024;
/** The deepest nesting inside a value: no export comes near it. */
export const MAX_DEPTH = 64;

/** The text is not JSON, or breaks one of the reader's bounds (`bound` says which). */
export class JsonReadError extends Error {
  constructor(message: string, readonly bound: "syntax" | "size" | "depth" = "syntax") {
    super(message);
  }
}

/** What a read is told: the slicer, and `onItem` called per element of a walked array. */
interface JsonReadOptions {
  slicer: Slicer;
  onItem?: () => void;
}

const WHITESPACE = /[ \t\n\r]*/y;
// A number, true, false or null runs to the next delimiter; JSON.parse then judges it.
const SCALAR = /[^\s,\]}]*/y;
const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d;

class Reader {
  pos = 0;
  constructor(readonly text: string, readonly options: JsonReadOptions) {}

  skipWhitespace(): number {
    WHITESPACE.lastIndex = this.pos;
    WHITESPACE.test(this.text);
    this.pos = WHITESPACE.lastIndex;
    return this.text.charCodeAt(this.pos);
  }

  fail(what: string): never {
    throw new JsonReadError(`${what} at position ${this.pos}`);
  }

  expect(code: number, what: string): void {
    if (this.skipWhitespace() !== code) this.fail(`expected ${what}`);
    this.pos++;
  }

  // The end (exclusive) of the string whose opening quote is at `from`.
  stringEnd(from: number): number {
    let at = from;
    for (;;) {
      at = this.text.indexOf('"', at + 1);
      if (at < 0) this.fail("unterminated string");
      let slashes = 0;
      while (this.text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) return at + 1;
    }
  }

  // The end (exclusive) of the value starting at `pos`, scanned without parsing it.
  valueEnd(): number {
    const text = this.text;
    const start = this.pos;
    const limit = Math.min(text.length, start + MAX_VALUE_CHARS);
    const first = text.charCodeAt(start);
    if (first === QUOTE) {
      const end = this.stringEnd(start);
      if (end - start > MAX_VALUE_CHARS) this.tooLarge();
      return end;
    }
    if (first !== OPEN_ARRAY && first !== OPEN_OBJECT) {
      // A number, true, false or null: up to the next delimiter.
      SCALAR.lastIndex = start;
      SCALAR.test(text);
      if (SCALAR.lastIndex - start > MAX_VALUE_CHARS) this.tooLarge();
      return SCALAR.lastIndex;
    }
    let depth = 0;
    for (let at = start; at < limit; at++) {
      const code = text.charCodeAt(at);
      if (code === QUOTE) at = this.stringEnd(at) - 1;
      else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
        if (++depth > MAX_DEPTH) throw new JsonReadError("nested too deeply", "depth");
      } else if ((code === CLOSE_ARRAY || code === CLOSE_OBJECT) && --depth === 0) return at + 1;
    }
    if (limit < text.length) this.tooLarge();
    return this.fail("unterminated value");
  }

  tooLarge(): never {
    throw new JsonReadError(
      `a value longer than ${MAX_VALUE_CHARS} characters at position ${this.pos}`,
      "size",
    );
  }

  // One value below the walked levels: scanned, then parsed alone.
  async leaf(): Promise<unknown> {
    this.skipWhitespace();
    const start = this.pos;
    const end = this.valueEnd();
    this.pos = end;
    let value: unknown;
    try {
      value = JSON.parse(this.text.slice(start, end));
    } catch (error) {
      throw new JsonReadError(`${(error as Error).message} (value at position ${start})`);
    }
    const turn = this.options.slicer.tick();
    if (turn) await turn;
    return value;
  }

  // A value at `depth`: the document (0) is walked whatever it is; arrays inside it (1) too.
  async value(depth: number): Promise<unknown> {
    const code = this.skipWhitespace();
    if (code === OPEN_ARRAY && depth <= 1) return await this.array(depth);
    if (code === OPEN_OBJECT && depth === 0) return await this.object(depth);
    return await this.leaf();
  }

  async array(depth: number): Promise<unknown[]> {
    this.pos++;
    const out: unknown[] = [];
    if (this.skipWhitespace() === CLOSE_ARRAY) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.options.onItem?.();
      out.push(await this.value(depth + 1));
      const next = this.skipWhitespace();
      this.pos++;
      if (next === CLOSE_ARRAY) return out;
      if (next !== COMMA) this.fail("expected , or ]");
    }
  }

  async object(depth: number): Promise<Record<string, unknown>> {
    this.pos++;
    const out: Record<string, unknown> = {};
    if (this.skipWhitespace() === CLOSE_OBJECT) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.skipWhitespace() !== QUOTE) this.fail("expected a key");
      const key = await this.leaf() as string;
      this.expect(COLON, ":");
      const value = await this.value(depth + 1);
      // As JSON.parse: a repeated key keeps the last value; "__proto__" is an own key.
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      const next = this.skipWhitespace();
      this.pos++;
      if (next === CLOSE_OBJECT) return out;
      if (next !== COMMA) this.fail("expected , or }");
    }
  }
}

/**
 * Reads JSON text (no byte-order mark) into its value, giving the event loop a turn between
 * values; a `JsonReadError` when the text is not JSON or breaks a bound.
 */
export async function readJson(text: string, options: JsonReadOptions): Promise<unknown> {
  const reader = new Reader(text, options);
  const value = await reader.value(0);
  if (reader.skipWhitespace(), reader.pos < text.length) reader.fail("unexpected text after");
  return value;
}
