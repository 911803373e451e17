/**
 * A small reader of a stylesheet's block structure, enough to catch what a missing `}` does: every
 * later rule becomes a nested selector inside the unclosed one and matches nothing. Plain CSS in
 * this project never nests a style rule inside another (only at-rules hold rules).
 */

/** One block of the stylesheet: its prelude (selector or at-rule), the line it opens on, its parent. */
interface CssBlock {
  prelude: string;
  line: number;
  atRule: boolean;
  parent?: CssBlock;
}

/** What is wrong with the sheet's structure, one message per fault (empty when sound). */
interface CssStructure {
  blocks: CssBlock[];
  faults: string[];
}

/** Blanks comments and strings (keeping newlines, so line numbers stay right). */
function blankCommentsAndStrings(css: string): string {
  return css.replace(
    /\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
    (m) => m.replace(/[^\n]/g, " "),
  );
}

/** Reads the blocks of `css` and reports style rules nested in style rules and unbalanced braces. */
export function readCssBlocks(css: string): CssStructure {
  const text = blankCommentsAndStrings(css);
  const blocks: CssBlock[] = [];
  const faults: string[] = [];
  const stack: CssBlock[] = [];
  let line = 1;
  let prelude = "";
  let preludeLine = 1;
  for (const ch of text) {
    if (ch === "{") {
      const selector = prelude.trim().replace(/\s+/g, " ");
      const parent = stack.at(-1);
      const block = {
        prelude: selector,
        line: preludeLine,
        atRule: selector.startsWith("@"),
        parent,
      };
      if (parent && !parent.atRule && !block.atRule) {
        faults.push(
          `line ${block.line}: "${selector}" is nested in "${parent.prelude}" (line ${parent.line})`,
        );
      }
      blocks.push(block);
      stack.push(block);
      prelude = "";
    } else if (ch === "}") {
      if (!stack.pop()) faults.push(`line ${line}: a "}" closes nothing`);
      prelude = "";
    } else if (ch === ";") {
      prelude = "";
    } else {
      if (prelude.trim() === "" && ch.trim() !== "") preludeLine = line;
      prelude += ch;
    }
    if (ch === "\n") line++;
  }
  for (const open of stack) faults.push(`line ${open.line}: "${open.prelude}" is never closed`);
  return { blocks, faults };
}

/** The class names a selector list uses (`.card-reason`, `.pick-actions .button` ...). */
export function classesOf(selector: string): string[] {
  return [...selector.matchAll(/\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)/g)].map((m) => m[1]);
}
