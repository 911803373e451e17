/**
 * A movie night on three phones in Chromium (docs/nights.md, "The page"): the creator starts one
 * from the home page's "Movie night" and lands on its page with the join link; two others open
 * that link (their own accounts, their own phones) and join; the creator starts the vote; each
 * phone shows one poster at a time and votes with the Yes button or the Y and N keys; every phone
 * follows the others' progress by the event stream, and all three show the match; axe finds nothing on the vote or the match. Signed out,
 * the link leads to sign-in and back.
 */
import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated } from "./helpers/server.ts";

const PHONE = 390;

async function currentTitle(page: Page): Promise<string> {
  return (await page.locator("#night-film-title").innerText()).replace(/\s*\(\d{4}\)$/, "").trim();
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  await page.evaluate(axe.source);
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    return (result.violations as { id: string; nodes: { target: unknown }[] }[])
      .map((v) => `${v.id} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
  });
}

browserTest({
  name:
    "browser: three members vote on their phones (buttons and the Y and N keys) until the match shows on every phone",
  async fn({ server, signUp, open, step }) {
    const tag = crypto.randomUUID().slice(0, 8);
    const sessions = await Promise.all(
      ["alice", "bob", "carol"].map((n) => signUp(`${n}-${tag}@example.test`)),
    );
    const [alice, bob, carol] = await Promise.all(
      sessions.map((session) => open({ session, width: PHONE })),
    );
    let joinPath = "";
    await step("the creator starts a night from the home page and lands on it", async () => {
      await alice.page.goto(`${server.url}/`);
      await hydrated(alice.page);
      await alice.page.getByRole("button", { name: "Start a movie night" }).click();
      await alice.page.waitForURL(/\/nights\/[0-9a-f-]{36}\?token=[A-Za-z0-9_-]{22}$/);
      joinPath = new URL(alice.page.url()).pathname + new URL(alice.page.url()).search;
      await alice.page.getByRole("button", { name: "Start the vote" }).waitFor();
    });
    await step(
      "two others join by the link on their own phones, and the creator sees them",
      async () => {
        for (const member of [bob, carol]) {
          await member.page.goto(`${server.url}${joinPath}`);
          await hydrated(member.page);
          await member.page.getByText("Waiting for the vote to start…").waitFor();
        }
        await alice.page.locator(".night-member").nth(2).waitFor();
        assert.equal(await alice.page.locator(".night-member").count(), 3);
      },
    );
    let first = "";
    await step("the creator starts the vote: every phone shows the first poster", async () => {
      await alice.page.getByRole("button", { name: "Start the vote" }).click();
      for (const member of [alice, bob, carol]) {
        await member.page.locator("#night-film-title").waitFor();
      }
      first = await currentTitle(alice.page);
      assert.equal(await currentTitle(bob.page), first);
      assert.ok(await alice.page.getByRole("button", { name: `Yes to ${first}` }).isVisible());
      assert.ok(await alice.page.getByRole("button", { name: `No to ${first}` }).isVisible());
      assert.deepEqual(await axeViolations(alice.page), []);
    });
    await step("Bob says no to the first film with N and yes to the second with Y", async () => {
      await bob.page.keyboard.press("n");
      await bob.page.getByText("No to " + first + ".").waitFor();
      const second = await currentTitle(bob.page);
      assert.notEqual(second, first);
      await bob.page.keyboard.press("y");
      await bob.page.getByText("Yes to " + second + ".").waitFor();
      // The others' phones follow his progress.
      await alice.page.locator(".night-member", { hasText: "2 of" }).waitFor();
    });
    await step(
      "Alice and Carol say no, then yes: the second film is the match on all three phones",
      async () => {
        for (const member of [alice, carol]) {
          await member.page.getByRole("button", { name: `No to ${first}` }).click();
        }
        const second = await currentTitle(alice.page);
        await alice.page.getByRole("button", { name: `Yes to ${second}` }).click();
        await carol.page.keyboard.press("y");
        for (const member of [alice, bob, carol]) {
          await member.page.getByRole("heading", { name: `It's a match: ${second}!` }).waitFor();
          assert.ok(await member.page.getByRole("button", { name: "Log it tonight" }).isVisible());
        }
      },
    );
    await step("Log it tonight logs the viewing for the member who presses it", async () => {
      assert.deepEqual(await axeViolations(bob.page), []);
      await bob.page.getByRole("button", { name: "Log it tonight" }).click();
      await bob.page.getByText(/in your diary/).waitFor();
    });
    for (const member of [alice, bob, carol]) assert.deepEqual(member.errors, []);
  },
});

browserTest({
  name:
    "browser: a night's link opened signed out offers sign-in that comes back to the night, token kept",
  async fn({ server, open }) {
    const { page } = await open({ width: PHONE });
    const path = `/nights/${crypto.randomUUID()}?token=AAAAAAAAAAAAAAAAAAAAAA`;
    await page.goto(`${server.url}${path}`);
    const signIn = page.locator("#main").getByRole("link", { name: "Sign in" });
    const href = await signIn.getAttribute("href");
    assert.equal(href, `/login?next=${encodeURIComponent(path)}`);
  },
});
