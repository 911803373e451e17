/** A read worker that fails on its request with an error nobody catches (a bug, not a Problem). */
self.addEventListener("message", () => {
  throw new TypeError("the unexpected happened");
});
