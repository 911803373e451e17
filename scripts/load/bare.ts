/**
 * The baselines of `deno task load`: a bare `Deno.serve` and a bare Hono app answering one
 * JSON body, in a process of their own, as the service is. Usage: bare.ts deno|hono PORT FILE
 * (FILE holds the JSON body to answer, e.g. the cached detail the service answers).
 */
import { Hono } from "hono";

const [kind, port, file] = Deno.args;
const body = JSON.parse(await Deno.readTextFile(file));
let handler: (request: Request) => Response | Promise<Response>;
if (kind === "hono") {
  const app = new Hono();
  app.get("/api/movies/:id", (c) => c.json(body));
  handler = app.fetch;
} else {
  handler = () => Response.json(body);
}
Deno.serve(
  { port: Number(port), hostname: "127.0.0.1", onListen: () => console.log("listening") },
  handler,
);
