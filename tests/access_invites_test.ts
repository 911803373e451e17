/** SIGNUP=open|invite|closed and the admin's invites: who may create an account. */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { signup } from "./helpers/auth_requests.ts";
import { problem } from "./helpers/problems.ts";

const ADMIN = { "x-admin-token": "invite-admin-token" };
const PASSWORD = "popcorn-matinee-42";

function inviteApp(mode: string) {
  return testApp({ env: { SIGNUP: mode, ADMIN_TOKEN: ADMIN["x-admin-token"] } });
}

async function invite(t: TestApp, body?: unknown) {
  const res = await t.request("/api/admin/invites", {
    method: "POST",
    headers: { ...ADMIN, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(res.status, 201);
  return await res.json() as { code: string; url: string; email: string | null };
}

async function invites(t: TestApp) {
  const res = await t.request("/api/admin/invites", { headers: ADMIN });
  assert.equal(res.status, 200);
  return (await res.json()).invites as { code: string; status: string; email: string | null }[];
}

Deno.test("SIGNUP=closed answers 403 signup_disabled to any signup, before reading the body", async () => {
  await using t = await inviteApp("closed");
  await problem(
    await signup(t, { email: "a@example.com", password: PASSWORD }),
    403,
    "signup_disabled",
  );
  await problem(await signup(t, "{not json"), 403, "signup_disabled");
  const [row] = await t.store.query<{ n: number }>("select count(*)::int as n from auth.users");
  assert.equal(row.n, 0);
});

Deno.test("SIGNUP=invite without a code answers 400 invite_required; an unknown code 400 invite_invalid", async () => {
  await using t = await inviteApp("invite");
  await problem(
    await signup(t, { email: "a@example.com", password: PASSWORD }),
    400,
    "invite_required",
  );
  await problem(
    await signup(t, { email: "a@example.com", password: PASSWORD, inviteCode: "" }),
    400,
    "invite_required",
  );
  await problem(
    await signup(t, { email: "a@example.com", password: PASSWORD, inviteCode: "NOPE" }),
    400,
    "invite_invalid",
  );
});

Deno.test("an invite admits one signup: 201 {code,url}, then the same code is invite_invalid", async () => {
  await using t = await inviteApp("invite");
  const made = await invite(t);
  assert.match(made.code, /^[A-Z2-9]{20}$/);
  assert.equal(made.url, `${t.config.siteUrl}/signup?invite=${made.code}`);
  assert.equal(made.email, null);
  const first = await signup(t, {
    email: "first@example.com",
    password: PASSWORD,
    inviteCode: made.code,
  });
  assert.equal(first.status, 201);
  const again = await signup(t, {
    email: "second@example.com",
    password: PASSWORD,
    inviteCode: made.code,
  });
  await problem(again, 400, "invite_invalid");
  const [listed] = await invites(t);
  assert.equal(listed.status, "used");
});

Deno.test("two signups racing with one invite: exactly one account is made", async () => {
  await using t = await inviteApp("invite");
  const { code } = await invite(t);
  const answers = await Promise.all(
    ["r1@example.com", "r2@example.com", "r3@example.com"].map((email) =>
      signup(t, { email, password: PASSWORD, inviteCode: code })
    ),
  );
  assert.deepEqual(answers.map((r) => r.status).sort(), [201, 400, 400]);
  for (const r of answers) await r.body?.cancel();
});

Deno.test("an invite bound to an email admits only that email, in any letter case", async () => {
  await using t = await inviteApp("invite");
  const made = await invite(t, { email: " Friend@Example.com " });
  assert.equal(made.email, "friend@example.com");
  await problem(
    await signup(t, { email: "stranger@example.com", password: PASSWORD, inviteCode: made.code }),
    400,
    "invite_invalid",
  );
  const ok = await signup(t, {
    email: "FRIEND@example.com",
    password: PASSWORD,
    inviteCode: made.code,
  });
  assert.equal(ok.status, 201);
});

Deno.test("an invite expires after expiresInDays (default 7), not a second before", async () => {
  await using t = await inviteApp("invite");
  const clock = t.clock;
  const week = await invite(t);
  const day = await invite(t, { expiresInDays: 1 });
  clock.advance(86_400_000 - 1000);
  assert.equal(
    (await signup(t, { email: "d@example.com", password: PASSWORD, inviteCode: day.code })).status,
    201,
  );
  clock.advance(6 * 86_400_000 + 1000);
  await problem(
    await signup(t, { email: "w@example.com", password: PASSWORD, inviteCode: week.code }),
    400,
    "invite_invalid",
  );
  assert.deepEqual((await invites(t)).map((i) => i.status).sort(), ["expired", "used"]);
});

Deno.test("a signup refused after the invite check leaves the invite unused", async () => {
  await using t = await inviteApp("invite");
  const { code } = await invite(t);
  await t.store.query(
    `insert into auth.users (id, email, created_at) values (gen_random_uuid(), 'taken@example.com', now())`,
  );
  await problem(
    await signup(t, { email: "taken@example.com", password: PASSWORD, inviteCode: code }),
    409,
    "email_exists",
  );
  await problem(
    await signup(t, { email: "weak@example.com", password: "password", inviteCode: code }),
    400,
    "weak_password",
  );
  assert.equal((await invites(t))[0].status, "pending");
});

Deno.test("POST /api/admin/invites refuses bad bodies with 400 invalid_body, at the 1 and 30 day edges", async () => {
  await using t = await inviteApp("invite");
  for (
    const body of [
      { expiresInDays: 0 },
      { expiresInDays: 31 },
      { expiresInDays: 1.5 },
      {
        email: "not-an-email",
      },
      { extra: true },
      [],
    ]
  ) {
    const res = await t.request("/api/admin/invites", {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    await problem(res, 400, "invalid_body", JSON.stringify(body));
  }
  assert.ok((await invite(t, { expiresInDays: 30 })).code);
  assert.ok((await invite(t, { expiresInDays: 1 })).code);
});

Deno.test("the invite routes want the admin token: 401 without it", async () => {
  await using t = await inviteApp("invite");
  await problem(await t.request("/api/admin/invites"), 401, "unauthorized");
  await problem(await t.request("/api/admin/invites", { method: "POST" }), 401, "unauthorized");
  await problem(
    await t.request("/api/admin/invites/ABC", { method: "DELETE" }),
    401,
    "unauthorized",
  );
});

Deno.test("DELETE /api/admin/invites/:code revokes it: 204, then 404 invite_not_found, and the code no longer admits", async () => {
  await using t = await inviteApp("invite");
  const { code } = await invite(t);
  const gone = await t.request(`/api/admin/invites/${code}`, { method: "DELETE", headers: ADMIN });
  assert.equal(gone.status, 204);
  await problem(
    await t.request(`/api/admin/invites/${code}`, { method: "DELETE", headers: ADMIN }),
    404,
    "invite_not_found",
  );
  await problem(
    await signup(t, { email: "late@example.com", password: PASSWORD, inviteCode: code }),
    400,
    "invite_invalid",
  );
  assert.deepEqual(await invites(t), []);
});

Deno.test("SIGNUP=open (the default) needs no invite and ignores one", async () => {
  await using t = await testApp();
  assert.equal(t.config.access.signup, "open");
  const res = await signup(t, { email: "o@example.com", password: PASSWORD, inviteCode: "ANY" });
  assert.equal(res.status, 201);
});

Deno.test("the signup page says which mode is on and fills in the invite code of the link", async () => {
  {
    await using t = await inviteApp("invite");
    const html = await (await t.request("/signup?invite=ABCDEF")).text();
    assert.match(html, /by invitation/);
    assert.match(html, /id="auth-invite"[^>]*value="ABCDEF"|value="ABCDEF"[^>]*id="auth-invite"/);
  }
  {
    await using t = await inviteApp("closed");
    const html = await (await t.request("/signup")).text();
    assert.match(html, /not taking new accounts/);
    assert.doesNotMatch(html, /Create account</);
  }
  {
    await using t = await testApp();
    const html = await (await t.request("/signup")).text();
    assert.doesNotMatch(html, /by invitation|not taking new accounts/);
    assert.doesNotMatch(html, /auth-invite/);
  }
});

Deno.test("SIGNUP with an unknown value stops the start naming the variable", async () => {
  await assert.rejects(
    () => testApp({ env: { SIGNUP: "maybe" } }),
    /SIGNUP must be open, invite or closed/,
  );
});
