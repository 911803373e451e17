/**
 * POST /hooks/:secret/plex|jellyfin|emby|generic: a media server's webhook (docs/connections.md),
 * authenticated by the secret alone. The owner is found first (404, 429; unknown secrets are
 * limited per client address), then the body is read
 * (at most 1 MiB: 413) and handed to the receiver, which answers 200 for every readable event.
 */
import { z } from "zod";
import type { Handlers } from "@/lib/http/app_env.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readCappedBody } from "@/lib/http/read_body.ts";
import { MAX_HOOK_BODY_BYTES, payloadTooLarge } from "@/lib/connections/webhooks/mod.ts";
import { Problem } from "@/lib/core/problem.ts";

const Source = z.enum(["plex", "jellyfin", "emby", "generic"]);

export const handler: Handlers = {
  async POST(c) {
    const source = Source.safeParse(c.req.param("source"));
    if (!source.success) throw new Problem(404, "not_found", `No resource at ${c.req.path}.`);
    const connections = c.var.services.connections;
    const owner = await connections.open(c.req.param("secret") ?? "", {
      address: clientAddress(c),
    });
    const bytes = await readCappedBody(c.req.raw, { maxBytes: MAX_HOOK_BODY_BYTES });
    if (!bytes) {
      await connections.refused(owner, { source: source.data, reason: "payload_too_large" });
      throw payloadTooLarge();
    }
    const type = c.req.header("content-type") ?? "";
    return c.json(await connections.receive(owner, { source: source.data, bytes, type }));
  },
};
