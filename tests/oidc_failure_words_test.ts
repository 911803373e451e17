/**
 * A failed sign-in's words on the sign-in page (docs/oidc.md): shown when the service wrote them
 * (the redirect's `error_sig`), never a crafted link's own sentence.
 */
import assert from "node:assert/strict";
import { failureParams } from "../lib/identity/oidc/failure_seal.ts";
import { testApp } from "./helpers/app.ts";
import { textOf } from "./helpers/dom.ts";

Deno.test("/login shows the service's own failure words, and a crafted description never", async () => {
  await using t = await testApp();
  const own = await failureParams(t.kv, {
    code: "access_denied",
    description: "The sign-in at Test IdP was cancelled or refused.",
  });
  const shown = textOf(await (await t.request(`/login?${new URLSearchParams(own)}`)).text());
  assert.match(shown, /The sign-in at Test IdP was cancelled or refused\./);

  const crafted = new URLSearchParams({
    error: "access_denied",
    error_description: "Your account is locked: call +1 555 0100 to unlock it.",
  });
  const page = textOf(await (await t.request(`/login?${crafted}`)).text());
  assert.doesNotMatch(page, /call \+1 555/);
  assert.match(page, /The sign-in with the identity provider was refused\./);

  // A signature of other words does not lend them its trust.
  const forged = new URLSearchParams({ ...own, error_description: "Something else entirely." });
  assert.doesNotMatch(
    textOf(await (await t.request(`/login?${forged}`)).text()),
    /Something else entirely/,
  );
});
