/**
 * Every alert kind where people read it (docs/availability.md, "Notifications"): the shape of
 * each kind in GET /api/notifications, /notifications in plain words with the bell counting them
 * all, and the digest mail carrying the release alerts.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { choose, runOnce, save, world } from "./helpers/availability_job_world.ts";
import { P, seedMovie } from "./helpers/availability_world.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { startFakeSmtp } from "./helpers/fake_smtp.ts";
import { dayFrom, seedReleases } from "./helpers/release_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { get, sessionCookie } from "./helpers/web.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** One of each kind for `user`, a minute apart, oldest first: streaming, the three releases, a channel's notice. */
async function oneOfEach(sql: Sql, user: TestUser, at: number): Promise<string[]> {
  const rows = [
    [`'now_streaming', 460101, ${P(8)}, 'Netflix', '/netflix.jpg', 'US', null, null, null`],
    [`'in_theaters', 460102, null, '', '', 'US', 'theatrical', '2026-11-30', null`],
    [`'on_digital', 460102, null, '', '', 'US', 'digital', '2026-12-01', null`],
    [`'on_physical', 460103, null, '', '', 'GB', 'physical', '2026-12-02', null`],
    [`'channel_disabled', null, null, '', '', null, null, null, 'Phone ntfy'`],
  ];
  const ids: string[] = [];
  for (const [i, [values]] of rows.entries()) {
    const [row] = await sql.query<{ id: string }>(
      `insert into public.user_notifications (user_id, created_at, kind, catalog_id, provider_id,
         provider_name, provider_logo, region, release_type, release_date, channel_name)
       values ($1, $2, ${values}) returning id`,
      [user.id, new Date(at + i * 60_000).toISOString()],
    );
    ids.push(row.id);
  }
  return ids;
}

const iso = (ms: number) => new Date(ms).toISOString();

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/notifications shows each kind in its own shape, now streaming's as before`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    for (const id of [460101, 460102, 460103]) {
      await seedMovie(t.store, { id, title: `Film ${id}` });
    }
    const at = t.clock.now();
    const ids = await oneOfEach(t.store, user, at);
    const res = await t.request("/api/notifications", {
      headers: { authorization: `Bearer ${user.token}` },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.unread, 5);
    assert.deepEqual(body.notifications, [
      {
        id: ids[4],
        kind: "channel_disabled",
        catalogId: null,
        title: "",
        provider: null,
        region: null,
        channel: "Phone ntfy",
        createdAt: iso(at + 4 * 60_000),
        readAt: null,
      },
      {
        id: ids[3],
        kind: "on_physical",
        catalogId: 460103,
        title: "Film 460103",
        provider: null,
        region: "GB",
        releaseType: "physical",
        releaseDate: "2026-12-02",
        createdAt: iso(at + 3 * 60_000),
        readAt: null,
      },
      {
        id: ids[2],
        kind: "on_digital",
        catalogId: 460102,
        title: "Film 460102",
        provider: null,
        region: "US",
        releaseType: "digital",
        releaseDate: "2026-12-01",
        createdAt: iso(at + 2 * 60_000),
        readAt: null,
      },
      {
        id: ids[1],
        kind: "in_theaters",
        catalogId: 460102,
        title: "Film 460102",
        provider: null,
        region: "US",
        releaseType: "theatrical",
        releaseDate: "2026-11-30",
        createdAt: iso(at + 60_000),
        readAt: null,
      },
      {
        id: ids[0],
        kind: "now_streaming",
        catalogId: 460101,
        title: "Film 460101",
        provider: {
          id: P(8),
          name: "Netflix",
          logo: "https://image.tmdb.org/t/p/w92/netflix.jpg",
        },
        region: "US",
        createdAt: iso(at),
        readAt: null,
      },
    ]);
    // Marking read works the same for every kind.
    const read = await t.request("/api/notifications/read", {
      method: "POST",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      body: JSON.stringify({ ids: [ids[1], ids[4]] }),
    });
    assert.equal(read.status, 200);
    const unread = await t.request("/api/notifications?unread=true", {
      headers: { authorization: `Bearer ${user.token}` },
    });
    const left = await unread.json();
    assert.equal(left.unread, 3);
    assert.deepEqual(left.notifications.map((n: { id: string }) => n.id), [
      ids[3],
      ids[2],
      ids[0],
    ]);
  });
}

Deno.test("website: the bell counts every kind and /notifications says each in plain words", async () => {
  await using t = await testApp();
  const user = await createUser(t.deps);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
  for (const id of [460101, 460102, 460103]) {
    await seedMovie(t.store, { id, title: `Film ${id}` });
  }
  await oneOfEach(t.store, user, t.clock.now());
  let html = (await get(t, "/mylist", cookie)).html;
  assert.match(html, /aria-label="Notifications: 5 unread"/);
  html = (await get(t, "/notifications", cookie)).html;
  const items = [...parseHtml(html).querySelectorAll(".notification-list li")].map((li) =>
    textOf(li).replace(/\s+/g, " ").trim()
  );
  assert.equal(items.length, 5);
  assert.match(
    items[0],
    /^New Your alert channel “Phone ntfy” was turned off after 10 failed deliveries in a row\. Check it in your account\./,
  );
  assert.match(items[1], /^New Film 460103 is out on disc \(GB, from 2 Dec 2026\)/);
  assert.match(items[2], /^New Film 460102 is out on digital \(US, from 1 Dec 2026\)/);
  assert.match(items[3], /^New Film 460102 is in theaters \(US, from 30 Nov 2026\)/);
  assert.match(items[4], /^New Film 460101 is now streaming on Netflix \(US\)/);
  const links = [...parseHtml(html).querySelectorAll(".notification-list li a")].map((a) =>
    a.getAttribute("href")
  );
  assert.deepEqual(links, [
    "/account",
    "/movies/460103",
    "/movies/460102",
    "/movies/460102",
    "/movies/460101",
  ]);
  // Opening the page read them all.
  html = (await get(t, "/mylist", cookie)).html;
  assert.doesNotMatch(html, /unread"/);
});

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the digest mail carries the release alerts of the run, in plain words, and no channel notice`, async () => {
    await using smtp = await startFakeSmtp();
    await using w = await world(engine, {
      SMTP_URL: smtp.url,
      SITE_URL: "http://movies.test",
      MAIL_FROM: "alerts@movies.test",
    });
    const { t, clock } = w;
    const now = clock.now();
    const user = await createUser(t.deps, { email: `rel-${crypto.randomUUID()}@example.test` });
    await choose(t, user, { region: "US", providers: [P(8)], emailAlerts: true });
    await save(t, user, [460111, 460112]);
    await seedReleases(t.store, {
      id: 460111,
      releases: { US: [[3, dayFrom(now, 0)], [4, dayFrom(now, -1)]] },
      fetchedAt: now - 3_600_000,
    });
    await seedReleases(t.store, {
      id: 460112,
      releases: { US: [[5, dayFrom(now, -2)]] },
      fetchedAt: now - 3_600_000,
    });
    await t.store.query(
      `insert into public.user_notifications (user_id, kind, channel_name, created_at)
       values ($1, 'channel_disabled', 'Phone ntfy', $2)`,
      [user.id, new Date(now + 1000).toISOString()],
    );
    const outcome = await runOnce(t);
    assert.equal(outcome.notifications, 2, "discs are off by default");
    assert.equal(outcome.mails, 1);
    const mail = await smtp.waitFor(1);
    const unfolded = mail.raw.replace(/\r?\n[ \t]+/g, " ");
    assert.match(unfolded, /^Subject: 2 alerts from your My List/m);
    const day = (offset: number) =>
      new Date(now + offset * 86_400_000).toLocaleDateString("en-GB", {
        day: "numeric",
        month: "short",
        year: "numeric",
        timeZone: "UTC",
      });
    assert.ok(
      mail.text.includes(
        `- Film 460111 is in theaters (US, from ${day(0)}): http://movies.test/movies/460111`,
      ),
      mail.text,
    );
    assert.ok(mail.text.includes(`- Film 460111 is out on digital (US, from ${day(-1)})`));
    assert.doesNotMatch(mail.text, /ntfy|460112/);
    assert.match(
      mail.html,
      /<a href="http:\/\/movies.test\/movies\/460111">Film 460111<\/a> is in theaters/,
    );
    // Mailed once: the next run sends nothing more.
    clock.advance(3_600_000);
    assert.equal((await runOnce(t)).mails, 0);
  });
}
