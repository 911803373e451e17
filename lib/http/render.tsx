/** Server rendering of a page: the route's component inside the `_app` shell, as HTML. */
import type { ComponentType } from "preact";
import { renderToString } from "preact-render-to-string";
import type { AppShellProps, Ctx, PageProps } from "./env.ts";

/** Renders `Page` with `data` inside `Shell` and answers it as an HTML response. */
export function renderPage(
  c: Ctx,
  // deno-lint-ignore no-explicit-any
  pages: { Shell?: ComponentType<AppShellProps>; Page: ComponentType<PageProps<any>> },
  data: unknown,
  init: { status?: number } = {},
): Response {
  const url = new URL(c.req.url);
  const user = c.get("user");
  const { Shell, Page } = pages;
  const page = (
    <Page data={data} url={url} params={c.req.param() as Record<string, string>} user={user} />
  );
  const html = renderToString(Shell ? <Shell url={url} user={user}>{page}</Shell> : page);
  return c.html("<!DOCTYPE html>" + html, (init.status ?? 200) as 200);
}
