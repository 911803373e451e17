/**
 * The browser half of islands: finds every `data-island` marker the server rendered and
 * hydrates it with the island component of that name and the props serialised beside it.
 * Bundled into static/islands.js by scripts/build.ts; never imported by the server.
 */
import { type ComponentType, h, hydrate } from "preact";
import { registerServiceWorker } from "./offline.ts";

/** Hydrates each island marker in `root` whose component is in `islands`. */
export function hydrateIslands(
  // deno-lint-ignore no-explicit-any
  islands: Record<string, ComponentType<any>>,
  root: ParentNode = document,
): void {
  for (const el of root.querySelectorAll<HTMLElement>("[data-island]")) {
    const name = el.dataset.island ?? "";
    const component = islands[name];
    if (!component) {
      console.warn(`No island named ${name} in the bundle.`);
      continue;
    }
    let props: Record<string, unknown> = {};
    try {
      props = JSON.parse(el.dataset.props ?? "{}");
    } catch (error) {
      console.error(`Island ${name}: unreadable props`, error);
      continue;
    }
    hydrate(h(component, props), el);
  }
  // Pages with islands are the signed-in ones and the sign-in forms: the installed app's worker
  // starts from there (pages without islands ship no JavaScript at all).
  registerServiceWorker();
  // A hook for tests and styles: interactive from here on.
  document.documentElement.dataset.hydrated = "true";
}
