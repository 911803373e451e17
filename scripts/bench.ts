/**
 * `deno task bench`: runs every benchmark in scripts/bench/ (or those named as arguments).
 * Each reports its figure as a ratio against a baseline measured in the same run, since
 * these machines are shared and noisy.
 */
const dir = new URL("./bench/", import.meta.url);
const names: string[] = [];
for await (const entry of Deno.readDir(dir)) {
  if (entry.isFile && entry.name.endsWith(".ts")) names.push(entry.name);
}
const wanted = Deno.args.length ? names.filter((n) => Deno.args.some((a) => n.includes(a))) : names;
for (const name of wanted.sort()) {
  console.log(`\n## ${name.replace(/\.ts$/, "")}`);
  const module = await import(new URL(name, dir).href);
  await module.default();
}
