/** Adds <meta> tags to the page's head (Open Graph for link previews, robots). */
import { usePage } from "../lib/http/page_context.ts";

/** Renders nothing; each entry becomes one <meta> with those attributes in the shell's head. */
export function HeadMeta({ tags }: { tags: Record<string, string>[] }) {
  const page = usePage();
  page.meta = [...(page.meta ?? []), ...tags];
  return null;
}
