import assert from "node:assert/strict";
import { ApiError } from "../lib/web/api.ts";
import { signInMessage, signUpMessage } from "../lib/web/auth_messages.ts";

Deno.test("a refused sign-in reads as wrong credentials, too many attempts, or the server's words", () => {
  assert.equal(
    signInMessage({ code: "invalid_credentials", status: 400, message: "x" }),
    "Wrong email or password.",
  );
  assert.equal(
    signInMessage({ status: 429, message: "Request rate limit reached" }),
    "Too many attempts. Wait a minute and try again.",
  );
  assert.equal(signInMessage({ status: 500, message: "Boom" }), "Boom");
  assert.equal(signInMessage({ message: "" }), "Signing in failed. Please try again.");
});

Deno.test("a refused sign-up names a failed captcha, else says the API's message", () => {
  assert.equal(signUpMessage(new Error("network")), "Signing up failed. Please try again.");
  assert.match(signUpMessage(apiError("captcha_failed", "no")), /captcha check failed/);
  assert.equal(signUpMessage(apiError("weak", "Password too short")), "Password too short");
});

function apiError(code: string, message: string): ApiError {
  return new ApiError(400, code, message);
}
