/**
 * The website in a real browser, end to end: a new user signs up, is switched to sign-in when
 * the email exists, signs in, searches, opens a movie, marks it watched, adds another to My
 * List, sees both lists, removes one, gets recommendations, asks for new ones, signs out.
 */
import assert from "node:assert/strict";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated } from "./helpers/server.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";

browserTest({
  name: "browser: sign up, sign in, search, lists, recommendations, sign out",
  async fn({ server, open, step, stepsPassed }) {
    const { context, page, errors } = await open();
    const email = `flow-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const password = "correct horse battery";
    const other = POPULAR_FIXTURE_ROWS[0];

    await step("sign up creates the account and signs in", async () => {
      await page.goto(`${server.url}/signup`);
      await hydrated(page);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Create account" }).click();
      // A new account is offered the next step: import a history, or rate a few movies.
      await page.waitForURL(`${server.url}/?notice=welcome`);
      await page.getByRole("heading", { name: "Welcome! Your account is ready." }).waitFor();
      await page.locator(".account-email", { hasText: email }).waitFor();
    });

    await step("sign out from the header", async () => {
      await hydrated(page);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("link", { name: "Sign in" }).waitFor();
      assert.equal(await page.locator(".account-email").count(), 0);
    });

    await step("signing up again with the email switches to sign-in, which works", async () => {
      await page.goto(`${server.url}/signup`);
      await hydrated(page);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByText("An account with this email already exists").waitFor();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      assert.match(page.url(), /\/login\?next=/);
      assert.equal(await page.getByLabel("Email").inputValue(), email);
      await page.getByLabel("Password").fill("wrong password!");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText("Wrong email or password.").waitFor();
      // Focus stays on the button (never disabled), so Enter tries again.
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Sign in");
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${server.url}/`);
      await page.locator(".account-email", { hasText: email }).waitFor();
      // One cookie holds the whole session (no chunking): it must stay well under 4 KB.
      const cookie = (await context.cookies()).find((c) => c.name === "movies-session");
      assert.ok(cookie && cookie.value.length < 4000, `cookie of ${cookie?.value.length} bytes`);
      assert.equal(cookie.sameSite, "Lax");
      assert.equal(cookie.path, "/");
    });

    await step("search and open a movie", async () => {
      await page.getByLabel("Search movies").fill("fight club");
      await page.getByLabel("Search movies").press("Enter");
      await page.waitForURL(/\/search\?q=fight\+club/);
      await page.getByRole("heading", { name: "Results for “fight club”" }).waitFor();
      // Searching as you type: the results and the URL follow without submitting.
      await hydrated(page);
      await page.getByLabel("Search movies").fill("fight club 1999");
      await page.getByRole("heading", { name: "Results for “fight club 1999”" }).waitFor();
      await page.waitForURL(/\/search\?q=fight%20club%201999$/);
      await page.getByRole("link", { name: "Fight Club", exact: true }).click();
      await page.waitForURL(`${server.url}/movies/550`);
      await page.getByRole("heading", { name: "Fight Club", level: 1 }).waitFor();
    });

    await step(
      "mark it watched with the keyboard; My List then says why it is unavailable",
      async () => {
        await hydrated(page);
        const watchedButton = page.getByRole("button", { name: "Mark as watched" });
        await watchedButton.focus();
        await page.keyboard.press("Enter");
        await page.getByText("Marked “Fight Club” as watched.").waitFor();
        // Focus stays on the button, so a second Enter acts again (here: it is not needed).
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), "✓ Watched");
        assert.equal(
          await page.getByRole("button", { name: "✓ Watched" }).getAttribute("aria-pressed"),
          "true",
        );
        const myList = page.getByRole("button", { name: "Add to My List" });
        assert.equal(await myList.getAttribute("aria-disabled"), "true");
        assert.equal(
          await myList.evaluate((b) =>
            document.getElementById(b.getAttribute("aria-describedby") ?? "")?.textContent
          ),
          "You've watched this movie, so it can't go on My List.",
        );
        // Pressing it anyway changes nothing, and it keeps focus (it is focusable, with its reason).
        await myList.focus();
        await page.keyboard.press("Enter");
        assert.equal(
          await page.getByRole("status").first().textContent(),
          "Marked “Fight Club” as watched.",
        );
        assert.equal(
          await page.evaluate(() => document.activeElement?.textContent),
          "Add to My List",
        );
        // The watched movie gets the history form, dated today.
        await page.getByRole("slider", { name: "Your rating" }).waitFor();
      },
    );

    await step("add another movie to My List", async () => {
      // The server rendered the buttons' state: loading the page re-reads no list.
      const listReads: string[] = [];
      const onRequest = (r: { method(): string; url(): string }) => {
        if (r.method() === "GET" && /\/api\/(watched|mylist)$/.test(r.url())) {
          listReads.push(r.url());
        }
      };
      page.on("request", onRequest);
      await page.goto(`${server.url}/movies/${other.id}`);
      await hydrated(page);
      await page.waitForLoadState("networkidle");
      page.off("request", onRequest);
      assert.deepEqual(listReads, []);
      await page.getByRole("button", { name: "Add to My List" }).click();
      await page.getByText(`Added “${other.title}” to My List.`).waitFor();
      // The server renders the new state too.
      await page.reload();
      await page.getByRole("button", { name: "✓ In My List" }).waitFor();
    });

    await step("both lists show their movie; removing one leaves the empty state", async () => {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Watched" })
        .click();
      await page.waitForURL(`${server.url}/watched`);
      await page.getByRole("heading", { name: "Fight Club", level: 2 }).waitFor();
      await page.goto(`${server.url}/mylist`);
      await hydrated(page);
      await page.getByRole("heading", { name: String(other.title), level: 2 }).waitFor();
      await page.getByRole("button", { name: `Remove ${other.title} from My List` }).click();
      await page.getByText(`Removed “${other.title}” from My List.`).waitFor();
      await page.getByText("My List is empty.").waitFor();
      await page.reload();
      await page.getByText("My List is empty.").waitFor();
    });

    await step("recommendations: get, then new ones; the quota goes down", async () => {
      await page.goto(`${server.url}/recommendations`);
      await hydrated(page);
      await page.getByText("20 of 20 requests left today").waitFor();
      await page.getByRole("button", { name: "Get recommendations" }).click();
      const cards = page.getByRole("list", { name: "Recommendations" }).locator("h2");
      await cards.first().waitFor({ timeout: 60_000 });
      await page.getByText("19 of 20 requests left today").waitFor();
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll(".recommendations h2")].every((h) =>
            h.textContent !== "Loading…"
          ),
      );
      const first = await cards.allTextContents();
      assert.ok(first.length >= 5, first.join(", "));
      assert.ok(!first.includes("Fight Club"), "a watched movie was recommended");
      await page.getByRole("button", { name: "Get new ones" }).click();
      await page.getByText("18 of 20 requests left today").waitFor({ timeout: 60_000 });
      await page.waitForFunction(
        (previous) => {
          const titles = [...document.querySelectorAll(".recommendations h2")].map((h) =>
            h.textContent
          );
          return titles.length > 0 && titles.every((t) => t !== "Loading…") &&
            !titles.some((t) => previous.includes(t ?? ""));
        },
        first,
      );
    });

    await step("sign out ends the session for the server too", async () => {
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${server.url}/`);
      await page.getByRole("link", { name: "Sign in" }).waitFor();
      await page.goto(`${server.url}/watched`);
      await page.getByText("to see Watched").waitFor();
      const cookies = await context.cookies();
      assert.ok(!cookies.some((c) => c.name === "movies-session" && c.value), "cookie left");
    });

    if (stepsPassed()) assert.deepEqual(errors, [], "errors in the page");
  },
});
