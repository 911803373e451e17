import assert from "node:assert/strict";
import { choose, runOnce, save, serve, world } from "./helpers/availability_job_world.ts";
import { NETFLIX, P, PRIME, regionOffers, seedMovie } from "./helpers/availability_world.ts";
import { startFakeSmtp } from "./helpers/fake_smtp.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the digest mail reaches those with alerts on, with both RFC 8058 headers, and its link turns alerts off`, async () => {
    await using smtp = await startFakeSmtp();
    await using w = await world(engine, {
      SMTP_URL: smtp.url,
      SITE_URL: "http://movies.test",
      MAIL_FROM: "alerts@movies.test",
    });
    const { t, fake, clock } = w;
    const on = await createUser(t.deps, { email: `on-${crypto.randomUUID()}@example.test` });
    const off = await createUser(t.deps);
    await choose(t, on, { providers: [P(8), P(9)], emailAlerts: true });
    await choose(t, off, { providers: [P(8)] });
    for (const u of [on, off]) await save(t, u, [301, 302]);
    for (const id of [301, 302]) {
      await seedMovie(t.store, {
        id,
        title: `Film ${id}`,
        providers: { US: regionOffers({}) },
        at: clock.now() - 3 * 86_400_000,
      });
    }
    serve(fake, 301, { US: regionOffers({ flatrate: [NETFLIX] }) });
    serve(fake, 302, { US: regionOffers({ ads: [PRIME] }) });
    const outcome = await runOnce(t);
    assert.equal(outcome.notifications, 3);
    assert.equal(outcome.mails, 1);
    const mail = await smtp.waitFor(1);
    assert.equal(smtp.mails.length, 1);
    assert.deepEqual(mail.to, [on.email]);
    const unfolded = mail.raw.replace(/\r?\n[ \t]+/g, " ");
    const link = /^List-Unsubscribe: <(http:\/\/movies\.test\/unsubscribe\?token=[^>]+)>/m.exec(
      unfolded,
    )?.[1];
    assert.ok(link, "List-Unsubscribe header");
    assert.match(unfolded, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    // The refresh stored the fake's title for both movies.
    assert.match(unfolded, /^Subject: 2 movies on your list are now streaming/m);
    assert.match(
      mail.text,
      /- The Perks of Being a Wallflower is now streaming on Netflix: http:\/\/movies.test\/movies\/301/,
    );
    assert.match(
      mail.text,
      /- The Perks of Being a Wallflower is now streaming on Amazon Prime Video/,
    );
    assert.match(
      mail.html,
      /<a href="http:\/\/movies.test\/movies\/302">The Perks of Being a Wallflower<\/a>/,
    );
    assert.ok(mail.text.includes(link));

    // A forged or altered token changes nothing; GET only asks.
    const path = link.replace("http://movies.test", "");
    const forged = await t.request(path.slice(0, -2) + "xx", { method: "POST" });
    assert.equal(forged.status, 400);
    const page = await t.request(path);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Stop these mails/);
    assert.equal((await t.services.myStreaming.settings(on.id)).emailAlerts, true);
    // The mail client's one-click POST (RFC 8058), no sign-in.
    const res = await t.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    assert.equal(res.status, 200);
    assert.equal((await t.services.myStreaming.settings(on.id)).emailAlerts, false);

    // The next run's new alert is not mailed: alerts are off now.
    serve(fake, 301, { US: regionOffers({ flatrate: [NETFLIX, PRIME] }) });
    clock.advance(86_400_000);
    const next = await runOnce(t);
    assert.equal(next.notifications, 1);
    assert.equal(next.mails, 0);
    assert.equal(smtp.mails.length, 1);
  });
}

Deno.test("without SMTP_URL no digest is sent and the alerts stay unmailed", async () => {
  await using w = await world("embedded");
  const { t, fake, clock } = w;
  const u = await createUser(t.deps);
  await choose(t, u, { providers: [P(8)], emailAlerts: true });
  await save(t, u, [311]);
  await seedMovie(t.store, {
    id: 311,
    providers: { US: regionOffers({}) },
    at: clock.now() - 3 * 86_400_000,
  });
  serve(fake, 311, { US: regionOffers({ flatrate: [NETFLIX] }) });
  const outcome = await runOnce(t);
  assert.equal(outcome.notifications, 1);
  assert.equal(outcome.mails, 0);
  const rows = await t.store.query(
    `select mailed_at from public.user_notifications where user_id = $1`,
    [u.id],
  );
  assert.deepEqual(rows, [{ mailed_at: null }]);
});
