/**
 * A watched movie's entry form in a real browser: a star rating is saved the moment it is set (a
 * tap or a key), with no Save press, and says so; clearing it is saved the same way.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { hydrated } from "./helpers/server.ts";

browserTest({
  name: "browser: a tap on the stars saves the rating without Save; Delete clears it the same way",
  async fn({ server, signUp, open }) {
    const session = await signUp("tapper@example.test");
    const headers = {
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
    };
    const id = Number(POPULAR_FIXTURE_ROWS[0].id);
    const added = await fetch(`${server.url}/api/watched`, {
      method: "POST",
      headers,
      body: JSON.stringify({ catalogId: id }),
    });
    assert.equal(added.status, 200, await added.text());
    const ratingOf = async () =>
      (await (await fetch(`${server.url}/api/watched/${id}`, { headers })).json()).entry.rating;

    const { context, page, errors } = await open({ session, width: 390 });
    await page.goto(`${server.url}/movies/${id}`);
    await hydrated(page);
    const slider = page.getByRole("slider", { name: "Your rating" });
    const box = (await slider.boundingBox())!;
    // The seventh half star of ten: 3.5 stars, a rating of 7.
    await slider.click({ position: { x: box.width * 0.65, y: box.height / 2 } });
    await page.getByText("Rating saved: 3.5 of 5 stars.").waitFor();
    assert.equal(await ratingOf(), 7);
    await page.reload();
    await hydrated(page);
    assert.equal(await slider.getAttribute("aria-valuetext"), "3.5 of 5 stars");

    await slider.focus();
    await page.keyboard.press("Delete");
    await page.getByText("Rating cleared.").waitFor();
    assert.equal(await ratingOf(), null);
    assert.equal(await slider.evaluate((el) => el === document.activeElement), true);
    assert.deepEqual(errors, []);
    await context.close();
  },
});
