/**
 * What can I watch tonight, in a browser (docs/availability.md): choose services on /account,
 * filter My List to what is available and see the badges, then an availability run finds a
 * saved movie newly streaming on a chosen service (the fake TMDB changed its providers): the
 * bell counts it, /notifications shows it, and reading it clears the bell.
 */
import assert from "node:assert/strict";
import { regionOffers, seedMovie } from "./helpers/availability_world.ts";
import { browserTest } from "./helpers/browser_test.ts";
import { detailBody } from "./helpers/fake_tmdb.ts";
import { hydrated } from "./helpers/server.ts";

// Providers of this test alone, so a shared test database's other providers never match.
const MINE = { provider_id: 990_771, provider_name: "Tonightflix", logo_path: "/tonight.jpg" };
const OTHER = { provider_id: 990_772, provider_name: "Elsewhere+", logo_path: "/else.jpg" };
const STREAMS = 880_101;
const RENTS = 880_102;
const COMING = 880_103;

browserTest({
  name: "browser: choose services, filter My List to them, get and read an alert after a run",
  async fn({ server, signUp, open }) {
    const { t, tmdb } = server;
    const offers: Record<number, Record<string, unknown>> = {
      [STREAMS]: { US: regionOffers({ flatrate: [MINE] }) },
      [RENTS]: { US: regionOffers({ rent: [MINE], flatrate: [OTHER] }) },
      [COMING]: { US: regionOffers({ flatrate: [OTHER] }) },
    };
    const titles: Record<number, string> = {
      [STREAMS]: "Streams Tonight",
      [RENTS]: "Rent Only",
      [COMING]: "Coming Soon",
    };
    for (const id of [STREAMS, RENTS, COMING]) {
      // Stored long ago, so the run refreshes them; TMDB answers the same until told otherwise.
      await seedMovie(t.store, { id, title: titles[id], providers: offers[id], at: 0 });
      tmdb.movies.set(
        id,
        detailBody(id, { title: titles[id], "watch/providers": { results: offers[id] } }),
      );
    }
    const session = await signUp(`tonight-${crypto.randomUUID().slice(0, 8)}@example.test`);
    await t.store.query(
      `insert into public.user_my_list (user_id, catalog_ids) values ($1, $2)`,
      [session.user.id, [COMING, RENTS, STREAMS]],
    );
    const { page, errors } = await open({ session });

    // My List before services: every movie, and a way to choose them.
    await page.goto(`${server.url}/mylist`);
    await hydrated(page);
    await page.getByRole("link", { name: "Choose your streaming services" }).click();
    await page.waitForURL(`${server.url}/account#services-heading`);
    await hydrated(page);
    const region = page.getByRole("combobox", { name: "Where you watch" });
    assert.equal(await region.inputValue(), "US");
    await page.getByRole("checkbox", { name: "Tonightflix" }).check();
    await page.getByRole("button", { name: "Save my services" }).click();
    await page.getByText("Saved.").waitFor();

    // The filter and the badges.
    await page.goto(`${server.url}/mylist`);
    await hydrated(page);
    await page.getByRole("navigation", { name: "Availability" })
      .getByRole("link", { name: "Available to me" }).click();
    await page.waitForURL(/\/mylist\?available=mine$/);
    await hydrated(page);
    const cards = page.locator(".card-available");
    await cards.first().waitFor();
    assert.deepEqual(await cards.allTextContents(), ["On Tonightflix"]);
    assert.ok(await page.getByText("Streams Tonight").isVisible());
    assert.equal(await page.getByText("Coming Soon").count(), 0);
    assert.equal(await page.getByText("Rent Only").count(), 0);
    assert.equal(
      await page.getByRole("link", { name: "Notifications", exact: true }).count(),
      1,
    );

    // TMDB now lists Coming Soon on Tonightflix; a run notices it.
    offers[COMING] = { US: regionOffers({ flatrate: [OTHER, MINE] }) };
    tmdb.movies.set(
      COMING,
      detailBody(COMING, {
        title: titles[COMING],
        "watch/providers": { results: offers[COMING] },
      }),
    );
    const outcome = await (await t.services.availability.start()).done;
    assert.ok(outcome.notifications >= 1);

    await page.reload();
    await hydrated(page);
    assert.deepEqual(await page.locator(".card-available").allTextContents(), [
      "On Tonightflix",
      "On Tonightflix",
    ]);
    const bell = page.getByRole("link", { name: "Notifications: 1 unread" });
    assert.equal((await bell.textContent())?.trim(), "1");
    await bell.click();
    await page.waitForURL(`${server.url}/notifications`);
    const alert = page.locator(".notification-list li").first();
    assert.match(
      (await alert.textContent()) ?? "",
      /New\s*Coming Soon is now streaming on Tonightflix \(US\)/,
    );
    await page.getByRole("link", { name: "Coming Soon" }).first().waitFor();
    // Read: the bell has no count on the next page, and the alert is no longer new.
    await page.goto(`${server.url}/notifications`);
    await page.getByRole("link", { name: "Notifications", exact: true }).waitFor();
    assert.equal(await page.locator(".bell-count").count(), 0);
    assert.equal(await page.locator(".notification-list .new-badge").count(), 0);
    assert.deepEqual(errors, []);
  },
});
