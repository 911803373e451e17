/**
 * Islands on the server: `island("Name", Component)` gives pages a component that renders
 * `Component` inside `<div data-island="Name" data-props='{...}'>`, which lib/web/hydrate.ts
 * finds in the browser and hydrates from its entry in static/islands/ with the same props.
 */
import type { ComponentType, JSX } from "preact";
import { usePage } from "./page_context.ts";

// Props cross to the browser as JSON: a function or children would silently vanish there.
function assertSerialisable(name: string, value: unknown, path: string): void {
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
    throw new Error(`island ${name}: prop ${path} is not serialisable (${typeof value})`);
  }
  if (value && typeof value === "object") {
    if ("__k" in value || "$$typeof" in value) {
      throw new Error(`island ${name}: prop ${path} is a Preact element; islands take no children`);
    }
    for (const [key, item] of Object.entries(value)) {
      assertSerialisable(name, item, `${path}.${key}`);
    }
  }
}

const ISLANDS_DIR = new URL("../../islands/", import.meta.url);

function assertIslandFile(name: string): void {
  // A typo would otherwise render a marker the bundle never hydrates; fail at import instead.
  for (const ext of [".tsx", ".ts"]) {
    try {
      if (Deno.statSync(new URL(name + ext, ISLANDS_DIR)).isFile) return;
    } catch {
      // try the next extension
    }
  }
  throw new Error(`island("${name}"): there is no islands/${name}.tsx`);
}

/** The server-side wrapper of an island; `name` is its file name under islands/. */
export function island<P extends object>(
  name: string,
  Component: ComponentType<P>,
): (props: P) => JSX.Element {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`island name ${name} is not PascalCase`);
  assertIslandFile(name);
  function Island(props: P) {
    usePage().islands.add(name);
    assertSerialisable(name, props, "props");
    return (
      <div data-island={name} data-props={JSON.stringify(props)}>
        <Component {...props} />
      </div>
    );
  }
  Island.displayName = `Island(${name})`;
  return Island;
}
