/** The settings the shell renders into `<meta>` tags for the browser (the identity provider). */

/** A `<meta>` setting of the page, or undefined when absent or empty. */
export function pageMeta(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}
