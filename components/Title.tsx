/** Sets the document title of the page being rendered (the shell adds the site name). */
import { usePage } from "../lib/http/page_context.ts";

/** Renders nothing; `children` becomes the page's <title>. */
export function Title({ children }: { children: string }) {
  usePage().title = children;
  return null;
}
