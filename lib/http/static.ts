/**
 * Serves static/ under /static/: the stylesheet, the islands bundle, icons. URLs the pages
 * render carry `?v=<version>` (assetUrl), which are cached for a year; other requests
 * revalidate with the ETag, so a rebuilt bundle is never served stale.
 */
import type { Middleware } from "./app_env.ts";

const STATIC_DIR = new URL("../../static/", import.meta.url);

const TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  map: "application/json; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  ico: "image/x-icon",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
};

// Text compresses ~4x (the bundle 250 KB → 70 KB); Deno.serve no longer compresses by default.
const COMPRESSIBLE = new Set(["css", "js", "map", "json", "svg", "txt"]);

const gzipped = new Map<string, { version: string; body: Uint8Array<ArrayBuffer> }>();

/** The gzip of `file` at `version`, made once per version and kept in memory. */
async function gzipOf(file: string, version: string): Promise<Uint8Array<ArrayBuffer>> {
  const cached = gzipped.get(file);
  if (cached?.version === version) return cached.body;
  const raw = await Deno.readFile(new URL(file, STATIC_DIR));
  const stream = new Blob([raw]).stream().pipeThrough(new CompressionStream("gzip"));
  const body = new Uint8Array(await new Response(stream).arrayBuffer());
  gzipped.set(file, { version, body });
  return body;
}

const SAFE_PATH = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function stat(file: string): Deno.FileInfo | undefined {
  try {
    const info = Deno.statSync(new URL(file, STATIC_DIR));
    return info.isFile ? info : undefined;
  } catch {
    return undefined;
  }
}

function versionOf(info: Deno.FileInfo): string {
  return `${(info.mtime?.getTime() ?? 0).toString(36)}${info.size.toString(36)}`;
}

/** The URL of static file `file` with its version, so it can be cached for good. */
export function assetUrl(file: string): string {
  const info = stat(file);
  return `/static/${file}${info ? `?v=${versionOf(info)}` : ""}`;
}

/** The middleware of /static/*: GET and HEAD of files under static/, 404 for anything else. */
export function serveStatic(): Middleware {
  return async function serveStatic(c, next) {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return await next();
    let file = "";
    try {
      file = decodeURIComponent(c.req.path.replace(/^\/static\//, ""));
    } catch {
      // A malformed escape names no file.
    }
    const ext = file.split(".").pop() ?? "";
    const info = SAFE_PATH.test(file) && TYPES[ext] ? stat(file) : undefined;
    if (!info) return c.text("Not found", 404, { "cache-control": "no-store" });
    const version = versionOf(info);
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const etag = `"${version}${gzip ? "-gz" : ""}"`;
    const headers: Record<string, string> = {
      "content-type": TYPES[ext],
      etag,
      "x-content-type-options": "nosniff",
      "cache-control": c.req.query("v") === version
        ? "public, max-age=31536000, immutable"
        : "public, no-cache",
    };
    if (COMPRESSIBLE.has(ext)) headers.vary = "Accept-Encoding";
    if (c.req.header("if-none-match") === etag) return c.body(null, 304, headers);
    const body = gzip
      ? await gzipOf(file, version)
      : await Deno.readFile(new URL(file, STATIC_DIR));
    if (gzip) headers["content-encoding"] = "gzip";
    headers["content-length"] = String(body.byteLength);
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
  };
}
