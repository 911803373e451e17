/**
 * The client address the sign-in and signup limits count by. Behind a proxy (CLIENT_IP_HEADER
 * set) it is the last entry of that header, the one the nearest proxy wrote; otherwise the
 * connection's peer address from Deno.serve. A request with neither (in-process tests) is
 * counted as "unknown".
 */
import { getConnInfo } from "hono/deno";
import { UNKNOWN_ADDRESS } from "../identity/auth/limit_subject.ts";
import type { Ctx } from "./app_env.ts";

/** The client address of a request. */
export function clientAddress(c: Ctx): string {
  const header = c.var.deps.config.clientIpHeader;
  if (header) {
    const last = c.req.header(header)?.split(",").at(-1)?.trim();
    if (last) return last.slice(0, 100);
  }
  try {
    return getConnInfo(c).remote.address ?? UNKNOWN_ADDRESS;
  } catch {
    // app.request() in tests, or a server that did not pass Deno's connection info.
    return UNKNOWN_ADDRESS;
  }
}
