/**
 * The shortlist of a movie night in designed worlds (docs/nights.md, "The shortlist"): two and
 * three people with the local world's tastes (tests/helpers/local_world.ts). Nothing any member
 * watched or dismissed; a film one member hates never above one everybody likes; the order is
 * the lowest member's score, then the mean; onlyMine keeps to any member's services in their
 * region; reasons speak of shared tastes and never name a member's film or rating; a reshuffle
 * brings other films. On both stores.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { ENGINES } from "./helpers/store.ts";
import { F, type FeatureMovie, rate, worldMovies } from "./helpers/local_world.ts";
import { nightOf, seedWorld, send } from "./helpers/nights.ts";
import { scoreMovies } from "@/lib/recommend/local/mod.ts";

type App = Awaited<ReturnType<typeof testApp>>;
interface Film {
  catalogId: number;
  title: string;
  reasons: string[];
}

/**
 * The world's films, with Seoul Heist and Collateral also about a "thief": a keyword that is the
 * title of a film Bob watched, so a reason "… thief films" would tell the others what he saw.
 */
function movies(): FeatureMovie[] {
  return worldMovies().map((m) =>
    m.id === F.korean || m.id === F.collateral || m.id === F.heat || m.id === F.thief
      ? { ...m, keywords: [...(m.keywords ?? []), "thief"] }
      : m
  );
}

async function dismiss(t: App, user: TestUser, catalogId: number) {
  await t.store.query(
    `insert into public.user_dismissed_movies (user_id, catalog_id) values ($1, $2)`,
    [user.id, catalogId],
  );
}

/** Alice and Bob both love heist films and Michael Mann; Alice loves romantic comedies, Bob hates them. */
async function twoPeople(t: App) {
  await seedWorld(t.store, movies());
  // A database that already held the plain world (a file run alone on PostgreSQL) gets the word.
  await t.store.query(
    `update public.movies set keywords = keywords || '{thief}'
      where catalog_id = any ($1::integer[]) and not ('thief' = any (keywords))`,
    [[F.korean, F.collateral, F.heat, F.thief]],
  );
  const [alice, bob] = await Promise.all([1, 2].map(() => createUser(t.deps)));
  await rate(t.store, alice.id, [[F.heat, 9], [F.oceans11, 9], [F.wedding1, 9]]);
  await rate(t.store, bob.id, [[F.thief, 9], [F.oceans12, 9], [F.wedding2, 1]]);
  await dismiss(t, alice, F.miamiVice);
  return {
    alice,
    bob,
    seen: [F.heat, F.oceans11, F.wedding1, F.thief, F.oceans12, F.wedding2, F.miamiVice],
  };
}

const TITLES: Record<number, string> = Object.fromEntries(
  worldMovies().map((m) => [m.id, m.title]),
);

async function started(t: App, creator: TestUser, others: TestUser[], body = {}) {
  const { id } = await nightOf(t, creator, others, body);
  const r = await send(t, creator, `/api/nights/${id}/start`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return { id, night: r.body as unknown as { shortlist: Film[] } };
}

/** Every reason of `films` names none of `titles` and no rating. */
function assertNamesNoFilm(films: Film[], titles: string[]) {
  for (const f of films) {
    for (const reason of f.reasons) {
      for (const title of titles) {
        assert.ok(
          !reason.toLowerCase().includes(title.toLowerCase()),
          `"${reason}" (${f.title}) names ${title}`,
        );
      }
      assert.doesNotMatch(reason, /\d+\/10|rated|watched/i, reason);
    }
  }
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a two-person shortlist holds 12 films neither watched nor dismissed, ordered by the lower score then the mean`, async () => {
    await using t = await testApp({ engine });
    const { alice, bob, seen } = await twoPeople(t);
    const { night } = await started(t, alice, [bob]);
    const ids = night.shortlist.map((f) => f.catalogId);
    assert.equal(ids.length, 12);
    assert.equal(new Set(ids).size, 12);
    for (const id of seen) assert.ok(!ids.includes(id), `${TITLES[id]} was seen or dismissed`);
    // The order is the lowest member's score, ties by the mean, by each member's own model.
    const [a, b] = await Promise.all(
      [alice, bob].map((u) => scoreMovies(t.deps, u.id, { catalogIds: ids })),
    );
    const keys = ids.map((_, i) => {
      const s = [a[i].score, b[i].score];
      return [Math.min(...s), (s[0] + s[1]) / 2];
    });
    for (let i = 1; i < keys.length; i++) {
      const [lo, mean] = keys[i];
      const [prevLo, prevMean] = keys[i - 1];
      assert.ok(
        lo < prevLo || (lo === prevLo && mean <= prevMean),
        `position ${i + 1} out of order`,
      );
    }
    // The romantic comedy Bob would hate never ranks above a heist film they both like.
    const wedding = ids.indexOf(F.wedding3);
    for (const liked of [F.oceans13, F.korean, F.collateral]) {
      assert.ok(ids.includes(liked), `${TITLES[liked]} is on the list`);
      assert.ok(
        wedding === -1 || wedding > ids.indexOf(liked),
        `Wedding Three above ${TITLES[liked]}`,
      );
    }
    assert.ok(
      ids.indexOf(F.oceans13) < 3 && ids.indexOf(F.korean) < 3 && ids.indexOf(F.collateral) < 3,
    );
  });

  Deno.test(`[${engine}] a two-person shortlist's reasons speak of shared tastes and never name a member's film or rating`, async () => {
    await using t = await testApp({ engine });
    const { alice, bob, seen } = await twoPeople(t);
    const { night } = await started(t, alice, [bob]);
    const all = night.shortlist.flatMap((f) => f.reasons);
    assert.ok(all.some((r) => /^Both of you love heist films$/.test(r)), all.join(" | "));
    // "thief" is a keyword both are drawn to, and the title of Bob's film: never said.
    assert.ok(!all.some((r) => /thief/i.test(r)), all.join(" | "));
    assertNamesNoFilm(night.shortlist, seen.map((id) => TITLES[id]));
    for (const f of night.shortlist) assert.ok(f.reasons.length >= 1, f.title);
  });

  Deno.test(`[${engine}] a three-person shortlist puts the Michael Mann film all three like above the romantic comedy two of them hate`, async () => {
    await using t = await testApp({ engine });
    await seedWorld(t.store, movies());
    // A database that already held the plain world (a file run alone on PostgreSQL) gets the word.
    await t.store.query(
      `update public.movies set keywords = keywords || '{thief}'
      where catalog_id = any ($1::integer[]) and not ('thief' = any (keywords))`,
      [[F.korean, F.collateral, F.heat, F.thief]],
    );
    const [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => createUser(t.deps)));
    await rate(t.store, alice.id, [[F.heat, 9], [F.wedding1, 10]]);
    await rate(t.store, bob.id, [[F.thief, 9], [F.wedding2, 1]]);
    await rate(t.store, carol.id, [[F.miamiVice, 9], [F.oceans11, 1]]);
    await dismiss(t, carol, F.korean);
    const { night } = await started(t, alice, [bob, carol]);
    const ids = night.shortlist.map((f) => f.catalogId);
    for (const id of [F.heat, F.wedding1, F.thief, F.wedding2, F.miamiVice, F.oceans11, F.korean]) {
      assert.ok(!ids.includes(id), `${TITLES[id]} was seen or dismissed`);
    }
    assert.equal(ids[0], F.collateral, night.shortlist.map((f) => f.title).join(", "));
    const wedding = ids.indexOf(F.wedding3);
    assert.ok(wedding === -1 || wedding > 0);
    const collateral = night.shortlist[0];
    assert.ok(
      collateral.reasons.includes("All three of you love Michael Mann films"),
      collateral.reasons.join(" | "),
    );
    assertNamesNoFilm(
      night.shortlist,
      [F.heat, F.wedding1, F.thief, F.wedding2, F.miamiVice, F.oceans11, F.korean].map((id) =>
        TITLES[id]
      ),
    );
  });

  Deno.test(`[${engine}] with onlyMine the shortlist keeps to films streaming on any member's service in that member's region`, async () => {
    await using t = await testApp({ engine });
    const { alice, bob } = await twoPeople(t);
    await t.store.query(
      `insert into public.user_services (user_id, region, provider_ids) values
         ($1, 'US', '{8}'), ($2, 'GB', '{9}')`,
      [alice.id, bob.id],
    );
    await t.store.query(
      `insert into public.movie_streaming_offers
         (catalog_id, region, provider_id, provider_name, kind, kind_ord, ord) values
         (${F.korean}, 'US', 8, 'Netflix', 'flatrate', 1, 0),
         (${F.collateral}, 'GB', 9, 'Prime Video', 'flatrate', 1, 0),
         (${F.oceans13}, 'GB', 8, 'Netflix', 'flatrate', 1, 0),
         (1101, 'US', 9, 'Prime Video', 'flatrate', 1, 0)
       on conflict do nothing`,
    );
    const { night } = await started(t, alice, [bob], { onlyMine: true });
    assert.deepEqual(
      night.shortlist.map((f) => f.catalogId).sort(),
      [F.collateral, F.korean].sort(),
    );
  });

  Deno.test(`[${engine}] a reshuffle brings a new shortlist without the last one's films and starts the vote afresh`, async () => {
    await using t = await testApp({ engine });
    const { alice, bob } = await twoPeople(t);
    const { id, night } = await started(t, alice, [bob]);
    const first = night.shortlist.map((f) => f.catalogId);
    await send(t, bob, `/api/nights/${id}/votes`, { body: { catalogId: first[0], vote: "yes" } });
    // Starting again without reshuffle keeps the list.
    const again = await send(t, alice, `/api/nights/${id}/start`);
    assert.deepEqual((again.body.shortlist as Film[]).map((f) => f.catalogId), first);
    const r = await send(t, alice, `/api/nights/${id}/start?reshuffle=1`);
    assert.equal(r.status, 200);
    const second = (r.body.shortlist as Film[]).map((f) => f.catalogId);
    assert.ok(second.length > 0);
    for (const f of second) assert.ok(!first.includes(f));
    const read = await send(t, bob, `/api/nights/${id}`, { method: "GET" });
    assert.deepEqual(read.body.myVotes, []);
    assert.equal(read.body.match, null);
  });
}
