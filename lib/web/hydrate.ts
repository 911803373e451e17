/**
 * The browser half of islands: each island's entry (built by scripts/build.ts) finds the
 * `data-island` markers of its name the server rendered and hydrates them with the props
 * serialised beside them; the page's last module marks it hydrated. Never imported by the
 * server.
 */
import { type ComponentType, h, hydrate } from "preact";

/** Hydrates each marker of island `name` in `root` with `component`. */
export function hydrateIsland(
  name: string,
  // deno-lint-ignore no-explicit-any
  component: ComponentType<any>,
  root: ParentNode = document,
): void {
  for (const el of root.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    let props: Record<string, unknown> = {};
    try {
      props = JSON.parse(el.dataset.props ?? "{}");
    } catch (error) {
      console.error(`Island ${name}: unreadable props`, error);
      continue;
    }
    hydrate(h(component, props), el);
  }
}

/** Runs after every island of the page (module scripts run in document order). */
export function islandsReady(): void {
  // A hook for tests and styles: interactive from here on. (The service worker is registered by
  // every page's own `_worker` entry, islands or none.)
  document.documentElement.dataset.hydrated = "true";
}
