/**
 * The build's identity for `GET /api/health?deep=1`: the commit `deno task build` recorded in
 * static/build.json, else the platform's deployment id, else "dev" (a checkout never built).
 */

const BUILD_FILE = new URL("../static/build.json", import.meta.url);

/** What `deno task build` writes. */
interface BuildInfo {
  commit: string | null;
  builtAt: string;
}

let read: Promise<BuildInfo | null> | undefined;

async function readBuildInfo(): Promise<BuildInfo | null> {
  try {
    return JSON.parse(await Deno.readTextFile(BUILD_FILE));
  } catch {
    return null;
  }
}

/** The version string of this build; `deploymentId` is the platform's, when it has one. */
export async function buildVersion(options: { deploymentId?: string } = {}): Promise<string> {
  const info = await (read ??= readBuildInfo());
  return info?.commit ?? options.deploymentId ?? "dev";
}

/** The commit of the checkout at `root`, or null without git (a tarball, a bare build box). */
export async function currentCommit(root: string): Promise<string | null> {
  try {
    const { success, stdout } = await new Deno.Command("git", {
      args: ["-C", root, "rev-parse", "--short=12", "HEAD"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return success ? new TextDecoder().decode(stdout).trim() || null : null;
  } catch {
    return null;
  }
}
