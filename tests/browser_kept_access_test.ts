/**
 * What a password change and signing out of the other devices leave working (docs/identity.md,
 * "What a password change keeps"): the page lists the live personal tokens and the media-server
 * URL, and one button revokes every token and replaces the URL.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated } from "./helpers/server.ts";

const PASSWORD = "screenshots-password";

browserTest({
  name:
    "browser: after a password change and after signing out other devices, the tokens and media-server URL that still work are listed and revoked at once",
  async fn({ server, signUp, open, step }) {
    const email = `kept-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const session = await signUp(email);
    const bearer = { authorization: `Bearer ${session.access_token}` };
    const json = { ...bearer, "content-type": "application/json" };
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${server.url}${path}`, init);
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    const made = async (name: string) =>
      (await call("/api/tokens", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ name, scope: "write" }),
      })).body.token as string;
    const scrobbler = await made("Scrobbler");
    const first = (await call("/api/me/connections", { headers: bearer })).body.webhookUrl;
    const { page, errors } = await open({ session });

    await step(
      "the password change lists the token and the URL; one button revokes both",
      async () => {
        await page.goto(`${server.url}/account`);
        await hydrated(page);
        await page.getByLabel("Current password").fill(PASSWORD);
        await page.getByLabel("New password").fill("violet harbour tandem 3");
        await page.getByRole("button", { name: "Change password" }).click();
        await page.getByText("Password changed.").waitFor();
        const kept = page.locator(".kept-access").first();
        await kept.getByText("Scrobbler").waitFor();
        await kept.getByText(
          `${new URL(first).host}/hooks/${first.split("/hooks/")[1].slice(0, 4)}`,
        )
          .waitFor();
        // Still working after the change: that is why it is listed.
        assert.equal(
          (await call("/api/watched", { headers: { authorization: `Bearer ${scrobbler}` } }))
            .status,
          200,
        );
        await kept.getByRole("button", {
          name: "Revoke all tokens and replace the media-server URL",
        })
          .click();
        await kept.getByText("1 token is revoked and the media-server URL is replaced").waitFor();
        const refused = await call("/api/watched", {
          headers: { authorization: `Bearer ${scrobbler}` },
        });
        assert.equal(refused.status, 401);
        const old = await fetch(`${first}/generic`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ title: "Fight Club", year: 1999 }),
        });
        assert.equal(old.status, 404, "the old media-server URL finds nobody");
        await old.body?.cancel();
      },
    );

    await step("signing out the other devices lists what still works too", async () => {
      // This device's session stays through the password change: its token still makes one.
      const second = await call("/api/tokens", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ name: "Kodi", scope: "read" }),
      });
      assert.equal(second.status, 201);
      await page.getByRole("button", { name: "Sign out of other devices" }).click();
      await page.getByText("Every other device is signed out.").waitFor();
      const kept = page.locator(".kept-access").last();
      await kept.getByText("Kodi").waitFor();
      assert.ok(
        !(await kept.textContent())?.includes("Scrobbler"),
        "a revoked token is not listed",
      );
      await kept.getByRole("button", { name: "Revoke all tokens and replace the media-server URL" })
        .click();
      await kept.getByText("1 token is revoked").waitFor();
    });
    assert.deepEqual(errors, []);
  },
});
