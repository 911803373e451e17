/**
 * Queries on rendered HTML the way a user and assistive technology see it: parse the page, then
 * find elements by role (explicit or implicit), accessible name and text. Tests that use these
 * pin what the page offers, not the order of attributes or the exact markup.
 */
import { DOMParser } from "linkedom";

/** Parses a whole page or a fragment into a document. */
export function parseHtml(html: string): Document {
  // linkedom's types are its own; its objects implement the DOM methods these helpers use.
  return new DOMParser().parseFromString(html, "text/html") as unknown as Document;
}

/** What a role query can narrow by: accessible name, heading level, `aria-current`. */
interface RoleOptions {
  name?: string | RegExp;
  level?: number;
  current?: string;
}

const LANDMARK_SCOPES = "article, aside, main, nav, section";

const INPUT_ROLES: Record<string, string | undefined> = {
  checkbox: "checkbox",
  radio: "radio",
  search: "searchbox",
  number: "spinbutton",
  range: "slider",
  button: "button",
  submit: "button",
  reset: "button",
  image: "button",
  email: "textbox",
  tel: "textbox",
  text: "textbox",
  url: "textbox",
  password: undefined,
  hidden: undefined,
};

const TAG_ROLES: Record<string, string> = {
  button: "button",
  nav: "navigation",
  main: "main",
  aside: "complementary",
  article: "article",
  form: "form",
  textarea: "textbox",
  ul: "list",
  ol: "list",
  li: "listitem",
  dt: "term",
  dd: "definition",
  p: "paragraph",
  dialog: "dialog",
  table: "table",
  tr: "row",
  td: "cell",
  th: "columnheader",
};

/** The role of `el`: its `role` attribute, else the implicit role of its tag (HTML-AAM). */
function roleOf(el: Element): string | undefined {
  const explicit = el.getAttribute("role")?.trim().split(/\s+/)[0];
  if (explicit) return explicit;
  const tag = el.tagName.toLowerCase();
  if (/^h[1-6]$/.test(tag)) return "heading";
  if (tag === "a" || tag === "area") return el.hasAttribute("href") ? "link" : undefined;
  if (tag === "img") return el.getAttribute("alt") === "" ? "presentation" : "img";
  if (tag === "input") {
    const type = (el.getAttribute("type") ?? "text").toLowerCase();
    return type in INPUT_ROLES ? INPUT_ROLES[type] : "textbox";
  }
  if (tag === "select") {
    return el.hasAttribute("multiple") || Number(el.getAttribute("size")) > 1
      ? "listbox"
      : "combobox";
  }
  if (tag === "header" || tag === "footer") {
    if (el.parentElement?.closest(LANDMARK_SCOPES)) return undefined;
    return tag === "header" ? "banner" : "contentinfo";
  }
  if (tag === "section") {
    // A section is a region landmark only when it is named (and naming never asks for the role).
    const named = el.getAttribute("aria-label")?.trim() || el.getAttribute("aria-labelledby");
    return named ? "region" : undefined;
  }
  return TAG_ROLES[tag];
}

// Phrasing elements flow inside a line; every other element's text is a separate word.
const INLINE = new Set(
  "a abbr b bdi bdo cite code data dfn em i kbd label mark q s samp small span strong sub sup time u var"
    .split(" "),
);

function isHidden(el: Element): boolean {
  return el.closest("[hidden], [aria-hidden='true'], template, script, style, head") !== null;
}

function collectText(node: Node, parts: string[], forName: boolean): void {
  if (node.nodeType === 3) {
    parts.push(node.textContent ?? "");
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const el = node as Element;
  if (node.nodeType === 1) {
    const tag = el.tagName.toLowerCase();
    if (["script", "style", "template", "head"].includes(tag)) return;
    if (forName && (el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true")) return;
    if (forName && el.getAttribute("aria-label")) {
      parts.push(` ${el.getAttribute("aria-label")} `);
      return;
    }
    if (forName && tag === "img") {
      parts.push(` ${el.getAttribute("alt") ?? ""} `);
      return;
    }
    if (!INLINE.has(tag)) parts.push(" ");
  }
  for (const child of Array.from(node.childNodes)) collectText(child, parts, forName);
  if (node.nodeType === 1 && !INLINE.has(el.tagName.toLowerCase())) parts.push(" ");
}

function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The readable text of a node or an HTML string: no scripts, one space between words and blocks. */
export function textOf(node: Node | string): string {
  const root = typeof node === "string" ? parseHtml(node) : node;
  const parts: string[] = [];
  collectText(root, parts, false);
  return normalise(parts.join(""));
}

const NAME_FROM_CONTENT = new Set([
  "button",
  "link",
  "heading",
  "checkbox",
  "radio",
  "cell",
  "columnheader",
  "menuitem",
  "option",
  "tab",
  "switch",
  "treeitem",
]);

/** The accessible name of `el` (a simplified accname: labelledby, label, alt, content, title). */
export function nameOf(el: Element): string {
  const doc = el.ownerDocument;
  const labelledBy = el.getAttribute("aria-labelledby");
  if (labelledBy) {
    const labels = labelledBy.split(/\s+/).map((id) => doc.getElementById(id));
    return normalise(labels.map((label) => (label ? textOf(label) : "")).join(" "));
  }
  const label = el.getAttribute("aria-label")?.trim();
  if (label) return label;
  const tag = el.tagName.toLowerCase();
  if (tag === "img") return normalise(el.getAttribute("alt") ?? "");
  if (["input", "select", "textarea"].includes(tag)) {
    const id = el.getAttribute("id");
    const forLabel = id ? doc.querySelector(`label[for="${id}"]`) : null;
    const owner = forLabel ?? el.closest("label");
    if (owner) return textOf(owner);
    if (["submit", "button", "reset"].includes(el.getAttribute("type") ?? "")) {
      return el.getAttribute("value") ?? "";
    }
  }
  const role = roleOf(el);
  if (role && NAME_FROM_CONTENT.has(role)) {
    const parts: string[] = [];
    collectText(el, parts, true);
    const content = normalise(parts.join(""));
    if (content) return content;
  }
  return normalise(el.getAttribute("title") ?? "");
}

function matches(el: Element, options: RoleOptions): boolean {
  const { name, level, current } = options;
  if (name !== undefined) {
    const actual = nameOf(el);
    if (typeof name === "string" ? actual !== name : !name.test(actual)) return false;
  }
  if (level !== undefined) {
    const own = el.getAttribute("aria-level") ?? el.tagName.match(/^h([1-6])$/i)?.[1];
    if (Number(own) !== level) return false;
  }
  if (current !== undefined && el.getAttribute("aria-current") !== current) return false;
  return true;
}

/** Every element under `root` with `role` that is not hidden, narrowed by `options`. */
export function queryAllByRole(
  root: ParentNode,
  role: string,
  options: RoleOptions = {},
): Element[] {
  return Array.from(root.querySelectorAll("*")).filter((el) =>
    roleOf(el) === role && !isHidden(el) && matches(el, options)
  );
}

/** The one element with `role` and `options` under `root`; throws, naming what is there, if not one. */
export function getByRole(root: ParentNode, role: string, options: RoleOptions = {}): Element {
  const found = queryAllByRole(root, role, options);
  if (found.length === 1) return found[0];
  const present = queryAllByRole(root, role).map((el) => JSON.stringify(nameOf(el)));
  const wanted = JSON.stringify({ ...options, name: options.name?.toString() });
  throw new Error(
    `expected one ${role} matching ${wanted}, ` +
      `found ${found.length}; ${role}s present: ${present.join(", ") || "none"}`,
  );
}
