/**
 * Copies the API reference's browser assets (swagger-ui-dist's own built bundle and stylesheet)
 * from the npm package into static/api-docs/, so /api/docs is served from this server alone:
 * no CDN, works offline. Run by `deno task build` (and `--if-stale` by `deno task start`).
 */
import swaggerUi from "swagger-ui-dist";

/** The files /api/docs loads, as the package ships them. */
export const API_DOCS_FILES = ["swagger-ui-bundle.js", "swagger-ui.css"] as const;

/** Where the copies go, relative to the project root. */
export const API_DOCS_DIR = "static/api-docs";

// The package's own version, written beside the copies so a version bump forces a new copy.
async function packageVersion(source: string): Promise<string> {
  const manifest = JSON.parse(await Deno.readTextFile(`${source}/package.json`));
  return String(manifest.version);
}

/** Copies the assets under `root` unless the same package version is already there. */
export async function copyApiDocsAssets(root: string): Promise<boolean> {
  const source = swaggerUi.absolutePath();
  const target = `${root}/${API_DOCS_DIR}`;
  const version = await packageVersion(source);
  const stamp = `${target}/VERSION.txt`;
  const present = await Deno.readTextFile(stamp).catch(() => "");
  if (present.trim() === version) return false;
  await Deno.mkdir(target, { recursive: true });
  for (const file of API_DOCS_FILES) await Deno.copyFile(`${source}/${file}`, `${target}/${file}`);
  await Deno.writeTextFile(stamp, `${version}\n`);
  return true;
}
