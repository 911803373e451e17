/**
 * The website's side of my services (docs/availability.md): My services on /account, the "Available to me"
 * filter and badges on My List, the header's bell with the unread count, and /notifications.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { NETFLIX, P, PRIME, regionOffers, seedMovie } from "./helpers/availability_world.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { createUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

Deno.test("website: My services on /account, the Available to me filter and badges, the bell and /notifications", async () => {
  await using t = await testApp();
  const user = await createUser(t.deps);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
  await seedMovie(t.store, {
    id: 501,
    title: "Streams",
    providers: { US: regionOffers({ flatrate: [NETFLIX] }) },
  });
  await seedMovie(t.store, {
    id: 502,
    title: "Rents only",
    providers: { US: regionOffers({ rent: [NETFLIX] }) },
  });
  await seedMovie(t.store, {
    id: 503,
    title: "On Prime",
    providers: { US: regionOffers({ ads: [PRIME] }) },
  });
  await t.store.query(
    `insert into public.user_my_list (user_id, catalog_ids) values ($1, '{502,501,503}')`,
    [user.id],
  );

  // No services yet: My List offers to choose them, and shows every movie.
  let html = (await get(t, "/mylist", cookie)).html;
  assert.match(html, /Choose your streaming services/);
  let grid = islandsOf(html).find((i) => i.name === "ListGrid")!.props as {
    cards: { catalogId: number; availability?: unknown[] }[];
  };
  assert.deepEqual(grid.cards.map((c) => c.catalogId), [502, 501, 503]);

  // /account: the region by name, the region's providers as logo checkboxes.
  html = (await get(t, "/account", cookie)).html;
  const form = islandsOf(html).find((i) => i.name === "MyStreaming")!.props as {
    region: string;
    regions: [string, string][];
    providers: { id: number; name: string; logo: string }[];
  };
  assert.equal(form.region, "US");
  assert.ok(form.regions.some(([code, name]) => code === "DE" && name === "Germany"));
  assert.deepEqual(form.providers.filter((p) => p.id > P(0)).map((p) => p.name).sort(), [
    "Amazon Prime Video",
    "Netflix",
  ]);
  assert.match(html, /Save my services/);

  await t.request("/api/me/services", {
    method: "PUT",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify({ providers: [P(8), P(9)] }),
  });
  html = (await get(t, "/mylist?available=mine", cookie)).html;
  grid = islandsOf(html).find((i) => i.name === "ListGrid")!.props as typeof grid;
  assert.deepEqual(grid.cards.map((c) => c.catalogId), [501, 503]);
  assert.deepEqual(grid.cards[1].availability, [{
    id: P(9),
    name: "Amazon Prime Video",
    kind: "ads",
  }]);
  const doc = parseHtml(html);
  const current = doc.querySelector('.availability-filter [aria-current="page"]');
  assert.equal(current && textOf(current).trim(), "Available to me");
  assert.match(html, /On Amazon Prime Video \(with ads\)/);

  // The bell: unread count in the header; /notifications shows the alert and reads it.
  await t.store.query(
    `insert into public.user_notifications (user_id, catalog_id, provider_id, provider_name, region)
     values ($1, 501, $2, 'Netflix', 'US')`,
    [user.id, P(8)],
  );
  html = (await get(t, "/mylist", cookie)).html;
  assert.match(html, /aria-label="Notifications: 1 unread"/);
  html = (await get(t, "/notifications", cookie)).html;
  assert.match(
    textOf(parseHtml(html).querySelector(".notification-list")!),
    /New\s+Streams is now streaming on Netflix/,
  );
  assert.doesNotMatch(html, /1 unread/);
  html = (await get(t, "/notifications", cookie)).html;
  assert.doesNotMatch(html, /class="new-badge"/);
  // Signed out: a sign-in prompt, no bell.
  html = (await get(t, "/notifications")).html;
  assert.doesNotMatch(html, /notification-bell/);
});
