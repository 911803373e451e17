/**
 * The KV of COORDINATION=postgres (docs/coordination.md): lib/platform/kv/kv.ts `Kv` over the
 * `coordination` schema, so every instance on one PostgreSQL shares each count, window, lease,
 * sign-in flow and secret. A read is one indexed select; a commit is one call of
 * `coordination.commit`, which locks its keys, compares their versions and writes; a counting
 * step is one call of `coordination.take_count`. Expiry is judged by the injected clock, the
 * same clock the callers time their leases and windows by.
 */
import type { Clock } from "@/lib/core/clock.ts";
import type {
  CountOptions,
  CountResult,
  CountSlot,
  Kv,
  KvAtomic,
  KvCommitOutcome,
  KvEntryMaybe,
  KvKey,
} from "../kv/kv.ts";
import type { Sql } from "../store/mod.ts";
import { decodeKey, encodeKey, prefixRange } from "./key_codec.ts";
import { decodeValue, encodeValue } from "./value_codec.ts";

/** Rows a list reads per query. */
const LIST_PAGE = 200;

const LIVE = "(expires_at is null or expires_at > $2::bigint)";

interface Row {
  key: string;
  value: string;
  version: string;
}

// Times and expiries as whole milliseconds (the columns are bigint); an expiry rounds up.
const msNow = (clock: Clock) => Math.floor(clock.now());
const ms = (expireIn: number) => Math.ceil(Math.max(0, expireIn));

/** Deno KV's versionstamp form: 20 hex digits. */
function stamp(version: string | number | bigint): string {
  return BigInt(version).toString(16).padStart(20, "0");
}

/** A check, set or delete, as `coordination.commit` reads them. */
type Mutation = { kind: "set"; value: unknown; expireIn?: number } | { kind: "delete" };

class PgAtomic implements KvAtomic {
  readonly #checks = new Map<string, string | null>();
  // The last mutation of each key wins, as in Deno KV, where they apply in order.
  readonly #mutations = new Map<string, Mutation>();

  constructor(private readonly kv: PgKv) {}

  check(...checks: Deno.AtomicCheck[]): KvAtomic {
    for (const { key, versionstamp } of checks) {
      this.#checks.set(
        encodeKey(key),
        versionstamp === null ? null : BigInt("0x" + versionstamp).toString(),
      );
    }
    return this;
  }

  set(key: KvKey, value: unknown, options: { expireIn?: number } = {}): KvAtomic {
    this.#mutations.set(encodeKey(key), { kind: "set", value, expireIn: options.expireIn });
    return this;
  }

  delete(key: KvKey): KvAtomic {
    this.#mutations.set(encodeKey(key), { kind: "delete" });
    return this;
  }

  commit(): Promise<KvCommitOutcome> {
    const now = msNow(this.kv.clock);
    const ops = {
      checks: [...this.#checks].map(([k, v]) => ({ k, v })),
      sets: [...this.#mutations].flatMap(([k, m]) =>
        m.kind === "set"
          ? [{
            k,
            v: encodeValue(m.value),
            e: m.expireIn === undefined ? null : now + ms(m.expireIn),
          }]
          : []
      ),
      deletes: [...this.#mutations].flatMap(([k, m]) => m.kind === "delete" ? [k] : []),
    };
    return this.kv.commitOps(now, ops);
  }
}

/** `Kv` over the `coordination` schema of the store `sql`; expiry by `clock`. */
export class PgKv implements Kv {
  constructor(private readonly sql: Sql, readonly options: { clock: Clock }) {}

  /** The clock expiry is judged by. */
  get clock(): Clock {
    return this.options.clock;
  }

  async get<T = unknown>(key: KvKey): Promise<KvEntryMaybe<T>> {
    const rows = await this.sql.query<Row>(
      `select value::text as value, version::text as version from coordination.entries
        where key = $1::text collate "C" and ${LIVE}`,
      [encodeKey(key), msNow(this.clock)],
    );
    if (!rows.length) return { key, value: null, versionstamp: null };
    return {
      key,
      value: decodeValue(JSON.parse(rows[0].value)) as T,
      versionstamp: stamp(rows[0].version),
    };
  }

  async set(
    key: KvKey,
    value: unknown,
    options: { expireIn?: number } = {},
  ): Promise<Deno.KvCommitResult> {
    const done = await this.atomic().set(key, value, options).commit();
    if (!done.ok) throw new Error("An unchecked KV write cannot clash");
    return done;
  }

  async delete(key: KvKey): Promise<void> {
    await this.atomic().delete(key).commit();
  }

  async *list<T = unknown>(selector: { prefix: KvKey }): AsyncIterable<Deno.KvEntry<T>> {
    const range = prefixRange(selector.prefix);
    let after = range?.after ?? "";
    for (;;) {
      const rows = await this.sql.query<Row>(
        `select key, value::text as value, version::text as version from coordination.entries
          where key > $1::text collate "C" and ${LIVE} and ($3::text is null or key < $3::text collate "C")
          order by key collate "C" limit ${LIST_PAGE}`,
        [after, msNow(this.clock), range?.before ?? null],
      );
      for (const row of rows) {
        yield {
          key: decodeKey(row.key),
          value: decodeValue(JSON.parse(row.value)) as T,
          versionstamp: stamp(row.version),
        };
      }
      if (rows.length < LIST_PAGE) return;
      after = rows[rows.length - 1].key;
    }
  }

  atomic(): KvAtomic {
    return new PgAtomic(this);
  }

  /** Runs one commit (PgAtomic's); ok with the new versionstamp, or not ok when a check failed. */
  async commitOps(now: number, ops: object): Promise<KvCommitOutcome> {
    const [row] = await this.sql.query<{ version: string | null }>(
      `select coordination.commit($1::bigint, $2::text::jsonb)::text as version`,
      [now, JSON.stringify(ops)],
    );
    return row.version === null ? { ok: false } : { ok: true, versionstamp: stamp(row.version) };
  }

  async takeCounts(slots: CountSlot[], options: CountOptions): Promise<CountResult> {
    const { gate } = options;
    const [row] = await this.sql.query<{ taken: boolean; counts: string; closed: string }>(
      `select taken, pg_catalog.array_to_json(counts)::text as counts,
              closed_until::text as closed
         from coordination.take_count($1::bigint, $2::text::jsonb, $3::text, $4::numeric)`,
      [
        msNow(this.clock),
        JSON.stringify(slots.map((s) => ({ k: encodeKey(s.key), l: s.limit, e: ms(s.expireIn) }))),
        gate ? encodeKey(gate.key) : null,
        gate?.now ?? 0,
      ],
    );
    const counts = JSON.parse(row.counts) as number[];
    const closedUntil = Number(row.closed);
    if (row.taken) return { taken: true, counts, closedUntil };
    const full = slots.flatMap((slot, i) => counts[i] >= slot.limit ? [i] : []);
    return { taken: false, full, counts, closedUntil };
  }

  /** Nothing to close: the store's connections belong to the store. */
  close(): void {}
}
