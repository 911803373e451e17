/**
 * The service worker's script (GET /sw.js): lib/web/pwa/sw_source.js with the build's version and
 * the shell's URLs in front. The version is made from the shell's asset versions, so every
 * build that changes the stylesheet, the bundle or an icon serves a byte-different worker,
 * which the browser installs in place of the old one (and the old shell cache goes with it).
 */
import { ICONS } from "./icons.ts";

const SOURCE = new URL("./sw_source.js", import.meta.url);
let source: Promise<string> | undefined;

/** What the shell is made of: `assetUrl` gives a static file's versioned URL, `islands` the
 * islands' entries and chunks as the pages request them. */
interface ShellFiles {
  assetUrl: (file: string) => string;
  islands: string[];
}

/** The URLs the worker precaches: the stylesheet, the islands, the icons, the offline page. */
function shellUrls({ assetUrl, islands }: ShellFiles): string[] {
  return [
    assetUrl("styles.css"),
    ...islands,
    assetUrl("favicon.svg"),
    ...ICONS.map((icon) => assetUrl(`icons/${icon.file}`)),
    "/offline",
  ];
}

/** A short hash of `text`, hex. */
async function digest(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(bytes).subarray(0, 8), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** The worker's script for the shell as it is now. */
export async function serviceWorkerScript(shell: ShellFiles): Promise<string> {
  const urls = shellUrls(shell);
  const version = await digest(urls.join("\n"));
  const body = await (source ??= Deno.readTextFile(SOURCE));
  return `const VERSION = ${JSON.stringify(version)};\n` +
    `const PRECACHE = ${JSON.stringify(urls)};\n${body}`;
}
