/**
 * /api/docs main-thread time (issue 31, item 4): the server-drawn reference against Swagger UI
 * (swagger-ui-dist's bundle with the options /api/docs used, served from the same origin and
 * drawing the same document), measured in the same run: Chrome's TaskDuration and
 * ScriptDuration (CDP Performance.getMetrics) from navigation until every operation is on the
 * page (Swagger: its first `.opblock`; ours: hydrated, with its `details.api-op`), median of 3
 * cold loads each, plainly and on a throttled phone CPU (4x slower).
 */
import { Buffer } from "node:buffer";
import swaggerUi from "swagger-ui-dist";
import { chromium, type Page } from "playwright-core";
import { browserPath, CHROMIUM_ARGS, startTestServer } from "@/tests/helpers/server.ts";

const RUNS = 3;
const SWAGGER_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Swagger UI</title><link rel="stylesheet" href="/__swagger/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/__swagger/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#ui",
presets: [SwaggerUIBundle.presets.apis], validatorUrl: null, deepLinking: true,
tryItOutEnabled: false, defaultModelsExpandDepth: -1 });</script></body></html>`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function mainThread(
  page: Page,
  url: string,
  drawn: string,
  cpu: number,
): Promise<{ task: number; script: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  if (cpu > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
  await page.goto(url, { timeout: 120_000 });
  await page.waitForSelector(drawn, { timeout: 120_000 });
  const { metrics } = await cdp.send("Performance.getMetrics");
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return { task: value("TaskDuration") * 1000, script: value("ScriptDuration") * 1000 };
}

/** Prints both renderers' main-thread milliseconds and the ratio ours/Swagger UI. */
export default async function bench(): Promise<void> {
  await using server = await startTestServer();
  const dist = swaggerUi.absolutePath();
  const browser = await chromium.launch({ executablePath: browserPath(), args: CHROMIUM_ARGS });
  try {
    for (const cpu of [1, 4]) {
      const measure = async (kind: "swagger" | "ours") => {
        const tasks: number[] = [];
        const scripts: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const context = await browser.newContext({ colorScheme: "dark" });
          const page = await context.newPage();
          await page.route("**/__swagger/**", async (route) => {
            const name = new URL(route.request().url()).pathname.split("/").pop()!;
            if (name === "index.html") {
              return route.fulfill({ contentType: "text/html", body: SWAGGER_HTML });
            }
            const type = `${name.endsWith(".css") ? "text/css" : "text/javascript"}; charset=utf-8`;
            return route.fulfill({
              contentType: type,
              body: Buffer.from(await Deno.readFile(`${dist}/${name}`)),
            });
          });
          const m = kind === "swagger"
            ? await mainThread(page, `${server.url}/__swagger/index.html`, ".opblock", cpu)
            : await mainThread(page, `${server.url}/api/docs`, "html[data-hydrated] .api-op", cpu);
          tasks.push(m.task);
          scripts.push(m.script);
          await context.close();
        }
        return { task: median(tasks), script: median(scripts) };
      };
      const swagger = await measure("swagger");
      const ours = await measure("ours");
      const label = cpu > 1 ? `CPU ${cpu}x slower` : "unthrottled";
      console.log(
        `${label}: Swagger UI main thread ${swagger.task.toFixed(0)} ms (script ` +
          `${swagger.script.toFixed(0)} ms); server-drawn ${ours.task.toFixed(0)} ms (script ` +
          `${ours.script.toFixed(0)} ms); ratio ${(ours.task / swagger.task).toFixed(3)}`,
      );
    }
  } finally {
    await browser.close();
  }
}
