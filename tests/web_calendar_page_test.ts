/**
 * /calendar on the server (docs/calendar.md, "The page"): the month's releases as a grid and as
 * an agenda, the filters as a plain GET form (no JavaScript needed), the months either side
 * keeping the filters, and the feed address with its filters and QR code.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { seedCalendar } from "./helpers/calendar_world.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { createUser } from "./helpers/users.ts";
import { get, sessionCookie } from "./helpers/web.ts";

Deno.test("/calendar shows the month's releases, filters by a plain form, and offers the feed with its filters and a QR code", async () => {
  await using t = await testApp({ env: { SITE_URL: "https://movies.example" } });
  const user = await createUser(t.deps);
  await seedCalendar(t.store, user.id);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };

  // Today is 2026-11-22: November by default.
  let res = await get(t, "/calendar", cookie);
  assert.equal(res.status, 200);
  let doc = parseHtml(res.html);
  assert.equal(textOf(doc.querySelector("#month-heading")!), "November 2026");
  const grid = doc.querySelector(".calendar-grid")!;
  const today = grid.querySelector("td[aria-current=date]")!;
  assert.equal(textOf(today.querySelector(".day-number")!), "22");
  assert.deepEqual(
    [...grid.querySelectorAll("td")].filter((td) => td.querySelector(".release"))
      .map((td) => textOf(td)),
    ["10 Early Show In theaters"],
  );
  assert.deepEqual(
    [...doc.querySelectorAll(".calendar-agenda time")].map((e) => e.getAttribute("datetime")),
    ["2026-11-10"],
  );

  // The form's GET: February, digital and disc only, from every list.
  res = await get(t, "/calendar?month=2027-02&types=digital&types=physical&list=all", cookie);
  doc = parseHtml(res.html);
  assert.equal(textOf(doc.querySelector("#month-heading")!), "February 2027");
  assert.deepEqual(
    [...doc.querySelectorAll(".calendar-agenda .release")].map((e) => textOf(e)),
    ["Border Line Digital (DE)"],
  );
  const form = doc.querySelector("form.calendar-filters")!;
  assert.equal(form.getAttribute("method"), "get");
  assert.deepEqual(
    [...form.querySelectorAll("input[name=types]")].filter((i) => i.hasAttribute("checked"))
      .map((i) => i.getAttribute("value")),
    ["digital", "physical"],
  );
  assert.equal(form.querySelector("option[selected]")!.getAttribute("value"), "all");
  assert.equal(
    doc.querySelector("a[rel=next]")!.getAttribute("href"),
    "/calendar?month=2027-03&types=digital&types=physical&list=all",
  );
  assert.equal(
    doc.querySelector("a[rel=prev]")!.getAttribute("href"),
    "/calendar?month=2027-01&types=digital&types=physical&list=all",
  );
  const feed = doc.querySelector<HTMLInputElement>("#calendar-feed-url")!.getAttribute("value")!;
  assert.match(
    feed,
    /^https:\/\/movies\.example\/feeds\/[A-Za-z0-9_-]{22}\/calendar\.ics\?types=digital,physical&list=all$/,
  );
  assert.ok(doc.querySelector(".qr-code [role=img] svg"), "no QR code");
  assert.equal(res.headers.get("cache-control"), "private, no-store");
  // The address works and holds what the page shows.
  const ics = await (await t.request(new URL(feed).pathname + new URL(feed).search)).text();
  assert.ok(ics.includes("SUMMARY:Border Line (2027) on digital\r\n"));

  // A month with nothing says so; a month that is no month is today's.
  doc = parseHtml((await get(t, "/calendar?month=2026-07", cookie)).html);
  assert.equal(
    textOf(doc.querySelector(".empty-state")!),
    "No releases of your films in July 2026.",
  );
  doc = parseHtml((await get(t, "/calendar?month=2026-13", cookie)).html);
  assert.equal(textOf(doc.querySelector("#month-heading")!), "November 2026");
});

Deno.test("/calendar signed out asks to sign in", async () => {
  await using t = await testApp();
  const res = await get(t, "/calendar");
  assert.equal(res.status, 200);
  assert.match(res.html, /see when your films come out/);
});
