/**
 * Lists of a user's own (docs/lists.md): a page of a 5,000-item list against the store's
 * own hydration of the same ids, its last page against its first, and a move (end to start,
 * the longest renumbering) at 100, 1,000 and 5,000 items against a note change of the same
 * item (the same lock and transaction, no renumbering); and the list's page /lists/:id (60 a
 * page) at 100 and at 10,000 items (seeded by SQL past the 5,000 cap, the worst case), its time
 * as a ratio and its bytes (target: at most 1.5x and under 250 KB).
 */
import { HYDRATE_SQL } from "@/lib/catalog/cards.ts";
import { testApp } from "@/tests/helpers/app.ts";
import type { TestApp } from "@/tests/helpers/app.ts";
import { createUser, type TestUser } from "@/tests/helpers/users.ts";
import { sessionCookie } from "@/tests/helpers/web.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

// Alternating rounds, so a noisy neighbour on the machine slows both sides alike.
async function medians(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  rounds: number,
): Promise<[number, number]> {
  for (let i = 0; i < 5; i++) await a().then(b);
  const [as, bs]: number[][] = [[], []];
  for (let i = 0; i < rounds; i++) {
    as.push(await timed(a));
    bs.push(await timed(b));
  }
  return [median(as), median(bs)];
}

/** Prints each measure with its baseline and their ratio. */
export default async function bench(): Promise<void> {
  await using t = await testApp({ record: false });
  const u = await createUser(t.deps);
  const headers = { ...u.headers, "content-type": "application/json" };
  await t.store.query(
    `insert into public.movies (catalog_id, title, year, genres, runtime, poster_path)
     select g, 'Movie ' || g, 2000, '{Drama}', 100, '/p' || g || '.jpg'
       from generate_series(1, 5000) g
     on conflict do nothing`,
  );
  const lists = new Map<number, string>();
  for (const size of [100, 1000, 5000]) {
    const [row] = await t.store.query<{ id: string }>(
      `insert into public.user_lists (user_id, name) values ($1, $2) returning id::text as id`,
      [u.id, `List of ${size}`],
    );
    await t.store.query(
      `insert into public.user_list_items (list_id, catalog_id, position, note)
       select $1::uuid, g, g, case when g % 4 = 0 then 'A few words on why.' end
         from generate_series(1, $2::int) g`,
      [row.id, size],
    );
    lists.set(size, row.id);
  }
  const call = (path: string, init: RequestInit = {}) => async () => {
    const res = await t.request(path, { headers, ...init });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    await res.text();
  };

  const big = lists.get(5000)!;
  for (const limit of [100, 500]) {
    const ids = Array.from({ length: limit }, (_, i) => i + 1);
    const before = t.store.stats.queries;
    await call(`/api/lists/${big}?limit=${limit}`)();
    const queries = t.store.stats.queries - before;
    const [store, http] = await medians(
      () => t.store.query(HYDRATE_SQL, [ids]),
      call(`/api/lists/${big}?limit=${limit}`),
      100,
    );
    console.log(
      `5,000-item list, page of ${limit}: GET ${http.toFixed(2)} ms, store hydration ` +
        `${store.toFixed(2)} ms, ratio ${(http / store).toFixed(2)}, queries ${queries}`,
    );
  }
  const lastCursor = btoa(`p${5000 - 100}`).replace(/=+$/, "");
  const [firstPage, lastPage] = await medians(
    call(`/api/lists/${big}?limit=100`),
    call(`/api/lists/${big}?limit=100&cursor=${lastCursor}`),
    100,
  );
  console.log(
    `5,000-item list: last page ${lastPage.toFixed(2)} ms vs first ${firstPage.toFixed(2)} ms, ` +
      `ratio ${(lastPage / firstPage).toFixed(2)}`,
  );

  const moves: number[] = [];
  for (const [size, id] of lists) {
    // The item at the end goes to the start and back: every other item is renumbered twice.
    const item = `/api/lists/${id}/items/${size}`;
    let front = false;
    const move = () => {
      front = !front;
      return call(item, {
        method: "PATCH",
        body: JSON.stringify({ position: front ? 1 : size }),
      })();
    };
    let n = 0;
    const note = call(item, { method: "PATCH", body: JSON.stringify({ note: `n${n++}` }) });
    const [moved, noted] = await medians(move, note, size === 5000 ? 30 : 60);
    moves.push(moved);
    console.log(
      `move in a list of ${size}: ${moved.toFixed(2)} ms, note change ${noted.toFixed(2)} ms, ` +
        `ratio ${(moved / noted).toFixed(2)}`,
    );
  }
  console.log(
    `move at 1,000 vs 100: ratio ${(moves[1] / moves[0]).toFixed(2)}; ` +
      `at 5,000 vs 100: ratio ${(moves[2] / moves[0]).toFixed(2)}`,
  );
  await listPages(t, u);
}

// The website's page of a list of 100 against one of 10,000, alternating rounds.
async function listPages(t: TestApp, u: TestUser): Promise<void> {
  await t.store.query(
    `insert into public.movies (catalog_id, title, year, genres, runtime, poster_path)
     select g, 'Movie ' || g, 2000, '{Drama}', 100, '/p' || g || '.jpg'
       from generate_series(1, 10000) g
     on conflict do nothing`,
  );
  const ids: string[] = [];
  for (const size of [100, 10_000]) {
    const [row] = await t.store.query<{ id: string }>(
      `insert into public.user_lists (user_id, name) values ($1, $2) returning id::text as id`,
      [u.id, `Page of ${size}`],
    );
    await t.store.query(
      `insert into public.user_list_items (list_id, catalog_id, position, note)
       select $1::uuid, g, g, case when g % 4 = 0 then 'A few words on why.' end
         from generate_series(1, $2::int) g`,
      [row.id, size],
    );
    ids.push(row.id);
  }
  await t.store.query(`analyze`);
  const headers = { cookie: sessionCookie(u.token, u.email) };
  const bytes: number[] = [0, 0];
  const page = (k: number) => async () => {
    const res = await t.request(`/lists/${ids[k]}`, { headers });
    if (res.status !== 200) throw new Error(`/lists/${ids[k]} answered ${res.status}`);
    bytes[k] = (await res.arrayBuffer()).byteLength;
  };
  const [small, large] = await medians(page(0), page(1), 60);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `/lists/:id page (60): 100 items ${small.toFixed(2)} ms ${kb(bytes[0])}, 10,000 items ` +
      `${large.toFixed(2)} ms ${kb(bytes[1])}, ratio ${(large / small).toFixed(2)}`,
  );
}
