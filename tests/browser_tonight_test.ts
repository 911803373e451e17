/**
 * Tonight and the local picks in Chromium (docs/recommend.md, "Tonight" and "Two stages"): the
 * words, a mood preset and the search by keyboard alone, the AI's reading shown as chips, a chip
 * removed by keyboard asking again without the AI (focus kept on the chips), the films with their
 * reasons, no axe violation; on /recommendations a 👍 by keyboard; the navigation with Tonight
 * still fits a phone and a desktop.
 */
import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated } from "./helpers/server.ts";

/** Presses Tab until the focused element's label, aria-label or text is `name`; fails after 80. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return [];
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`) : el.closest("label");
      return [label?.textContent, el.getAttribute("aria-label"), el.textContent]
        .map((s) => (s ?? "").replace(/\s+/g, " ").trim());
    });
    if (focused.includes(name)) return;
  }
  assert.fail(`Tab never reached ${name}`);
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  await page.evaluate(axe.source);
  const found = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    return (result.violations as { id: string; nodes: { target: unknown }[] }[])
      .map((v) => `${v.id} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
  });
  return found;
}

const READING = {
  genres: ["Action"],
  excludeGenres: [],
  moods: ["tense"],
  runtimeMax: 140,
  yearFrom: null,
  yearTo: null,
  languages: [],
  onlyMine: false,
  fromMyList: false,
  similarTo: [],
};

browserTest({
  name:
    "browser: Tonight by keyboard: words and a mood read into chips, a chip removed without the AI, films with reasons, axe-clean",
  async fn({ server, signUp, open }) {
    const session = await signUp(`tonight-${crypto.randomUUID().slice(0, 8)}@example.test`);
    // The stored films (the popular page's) with runtimes, so a runtime limit keeps some.
    await server.t.store.query("update public.movies set runtime = 95 + (catalog_id % 60)");
    const { page, errors, context } = await open({ session });
    await page.goto(`${server.url}/tonight`);
    await hydrated(page);

    await tabTo(page, "What are you in the mood for?");
    await page.keyboard.type("Something with action that keeps me tense");
    await tabTo(page, "Edge of my seat");
    await page.keyboard.press("Space");
    assert.equal(
      await page.getByRole("button", { name: "Edge of my seat" }).getAttribute("aria-pressed"),
      "true",
    );
    const asked = server.ai.requests.length;
    server.ai.script({ content: JSON.stringify(READING) });
    await tabTo(page, "Find films");
    await page.keyboard.press("Enter");
    const chips = page.locator("#tonight-chips button");
    await chips.first().waitFor();
    assert.deepEqual(
      (await chips.allTextContents()).map((s) => s.replace(/\s+/g, " ").trim()),
      ["Action ×", "Edge of my seat ×", "Up to 140 min ×"],
    );
    assert.equal(server.ai.requests.length, asked + 1);
    // The words went as they were typed, the preset as a filter.
    const sent = server.ai.requests[asked].body.messages[1].content;
    assert.equal(sent, "Something with action that keeps me tense");
    const cards = page.locator(".tonight-results .card");
    assert.ok((await cards.count()) > 0, "no film for tonight");
    for (const reason of await cards.locator(".card-reason").allTextContents()) {
      assert.ok(reason.trim().length > 0);
    }
    for (const facts of await cards.locator(".card-facts").allTextContents()) {
      const minutes = Number(/(\d+) min/.exec(facts)?.[1]);
      assert.ok(minutes <= 140, facts);
    }
    assert.deepEqual(await axeViolations(page), []);

    // Removing the runtime chip by keyboard asks again with the filters only: no AI.
    await tabTo(page, "Remove Up to 140 min");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      ![...document.querySelectorAll("#tonight-chips button")]
        .some((b) => b.textContent?.includes("140"))
    );
    assert.equal(server.ai.requests.length, asked + 1);
    assert.ok(
      await page.evaluate(() => document.activeElement?.closest("#tonight-chips") !== null),
      "focus left the chips",
    );
    assert.equal(
      await page.locator("#tonight-runtime").inputValue(),
      "",
      "the runtime control follows the chips",
    );
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await context.close();

    // The light scheme too, with an answer on the page.
    const light = await open({ session, colorScheme: "light" });
    await light.page.goto(`${server.url}/tonight`);
    await hydrated(light.page);
    await light.page.getByRole("button", { name: "Something light" }).click();
    await light.page.getByRole("button", { name: "Find films" }).click();
    await light.page.locator("#tonight-chips button").first().waitFor();
    assert.deepEqual(await axeViolations(light.page), []);
    assert.deepEqual(light.errors, []);
    await light.context.close();
  },
});

browserTest({
  name:
    "browser: /recommendations shows the local picks first with 👍 by keyboard, then Ask the AI; the navigation with Tonight fits",
  async fn({ server, signUp, open }) {
    const session = await signUp(`localpicks-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const headers = {
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
    };
    const watched = await server.t.request("/api/watched", {
      method: "POST",
      headers,
      body: JSON.stringify({ catalogId: 640146, rating: 9 }),
    });
    assert.ok(watched.ok, `watched: ${watched.status}`);
    await watched.body?.cancel();
    const { page, errors, context } = await open({ session });
    await page.goto(`${server.url}/recommendations`);
    await hydrated(page);
    const headings = await page.locator("main h2[id]").allTextContents();
    assert.deepEqual(headings, ["Picked from your history", "Ask the AI"]);
    const local = page.getByRole("list", { name: "Picked from your history" });
    const first = local.locator(".card").first();
    const title = (await first.locator(".card-title").textContent())!.trim();
    await tabTo(page, `Thumbs up: ${title}`);
    await page.keyboard.press("Enter");
    const up = page.getByRole("button", { name: `Thumbs up: ${title}` });
    await page.waitForFunction(
      (name) =>
        document.querySelector(`[aria-label="${name}"]`)?.getAttribute("aria-pressed") === "true",
      `Thumbs up: ${title}`,
    );
    assert.equal(await up.getAttribute("aria-pressed"), "true");
    const [row] = await server.t.store.query<{ value: number }>(
      "select value from public.recommend_feedback where user_id = $1",
      [session.user.id],
    );
    assert.equal(Number(row.value), 1);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await context.close();

    for (const width of [360, 390, 1280]) {
      const opened = await open({ session, width });
      await opened.page.goto(`${server.url}/tonight`);
      const { rows, cut } = await opened.page.evaluate(() => ({
        rows: new Set(
          [...document.querySelectorAll(".nav-links a")].map((a) => a.getBoundingClientRect().top),
        ).size,
        // Cut off at the screen's edge, or its words spilling out of its cell.
        cut: [...document.querySelectorAll<HTMLElement>(".nav-links a")]
          .filter((a) =>
            a.getBoundingClientRect().right > document.documentElement.clientWidth ||
            a.scrollWidth > a.clientWidth
          )
          .map((a) => a.textContent),
      }));
      assert.ok(rows <= (width < 480 ? 2 : 1), `${width}px: the navigation takes ${rows} rows`);
      assert.deepEqual(cut, [], `${width}px: links cut off`);
      await opened.context.close();
    }
  },
});
