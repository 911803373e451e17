/** A read worker that takes its request and never answers (a read that hangs). */
self.addEventListener("message", () => {});
