/**
 * /account/connections in a browser (docs/connections.md): a token is made and its value shown
 * once, works as a Bearer credential, is gone from the page after a reload, and is revoked; the
 * Jellyfin webhook URL is copied, and an event posted to it shows in the recent events and the
 * diary.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { payloads } from "./helpers/webhooks.ts";
import { hydrated } from "./helpers/server.ts";

browserTest({
  name: "browser: make a personal access token, see it once, use it, revoke it",
  async fn({ server, signUp, open }) {
    const session = await signUp(`tokens-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const { page, errors } = await open({ session });
    await page.goto(`${server.url}/account`);
    await page.getByRole("link", { name: "Personal access tokens" }).click();
    await page.waitForURL(`${server.url}/account/connections`);
    await hydrated(page);
    await page.getByText("No tokens yet.").waitFor();
    await page.getByRole("textbox", { name: /^Name/ }).fill("Home server");
    await page.getByRole("combobox", { name: /^Access/ }).selectOption("read");
    await page.getByRole("button", { name: "Make a token" }).click();
    const value = page.getByLabel("The new token's value");
    await value.waitFor();
    const token = await value.inputValue();
    assert.match(token, /^mvt_/);
    // Focus goes to the value, selected, ready to copy.
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      "The new token's value",
    );
    const listed = await fetch(`${server.url}/api/watched`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(listed.status, 200);
    await listed.body?.cancel();
    // Shown once: after a reload the list names it, the value is nowhere on the page.
    await page.reload();
    await hydrated(page);
    await page.getByText("Home server").waitFor();
    assert.ok(!(await page.content()).includes(token));
    await page.getByRole("button", { name: "Revoke Home server" }).click();
    await page.getByText("Home server is revoked.").waitFor();
    const refused = await fetch(`${server.url}/api/watched`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
    assert.deepEqual(errors, []);
  },
});

browserTest({
  name:
    "browser: copy the Jellyfin webhook URL; a posted event shows in the recent events and the diary",
  async fn({ server, signUp, open }) {
    const session = await signUp(`hooks-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const { context, page, errors } = await open({ session });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: server.url,
    });
    await page.goto(`${server.url}/account/connections`);
    await hydrated(page);
    await page.getByText("Nothing received yet.").waitFor();
    await page.getByRole("button", { name: "Copy the Jellyfin webhook URL" }).click();
    await page.getByText("Jellyfin webhook URL copied.").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, new RegExp(`^${server.url}/hooks/[A-Za-z0-9_-]{22}/jellyfin$`));
    assert.equal(
      await page.getByRole("textbox", { name: "Jellyfin webhook URL" }).inputValue(),
      copied,
    );
    // Jellyfin finishes Fight Club (the plugin's recorded payload, with this film's id).
    const event = payloads.jellyfinStop();
    Object.assign(event, {
      Name: "Fight Club",
      Year: 1999,
      Provider_tmdb: "550",
      UtcTimestamp: new Date().toISOString(),
    });
    const posted = await fetch(copied, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify(event),
    });
    assert.deepEqual(await posted.json(), { result: "logged" });
    await page.getByRole("button", { name: "Refresh" }).click();
    const row = page.locator(".webhook-events tbody tr").first();
    await row.getByText("Fight Club").waitFor();
    assert.match(await row.innerText(), /jellyfin\s+PlaybackStop\s+Fight Club \(1999\)\s+Logged/);
    await page.goto(`${server.url}/diary`);
    await page.getByText("Fight Club").first().waitFor();
    assert.deepEqual(errors, []);
  },
});
