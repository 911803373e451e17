/**
 * The new-password field's words (docs/identity.md): before the estimator's dictionaries have
 * loaded, a typed password already shows words saying the check is under way.
 */
import assert from "node:assert/strict";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { NewPasswordField } from "../components/NewPasswordField.tsx";
import { parseHtml, textOf } from "./helpers/dom.ts";

function render(value: string) {
  const html = renderToString(
    h(NewPasswordField, { id: "pw", label: "Password", value, onInput: () => {} }),
  );
  return parseHtml(html);
}

Deno.test("the strength meter shows words while the dictionaries load", () => {
  const meter = render("lenabrandt1").querySelector(".strength");
  assert.match(textOf(meter!), /Checking how easy it is to guess/);
});

Deno.test("the strength meter is empty before anything is typed, and the hint states the rule", () => {
  const root = render("");
  assert.equal(textOf(root.querySelector(".strength")!).trim(), "");
  assert.match(textOf(root.querySelector("#pw-hint")!), /At least 8 characters/);
});
