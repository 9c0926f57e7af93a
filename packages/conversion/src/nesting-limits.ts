import { HTMLElement, type Node, parse as parseHtml, TextNode } from 'node-html-parser';
import { ConversionError } from './types';

/**
 * The deepest nesting we convert. HTML deeper than this is flattened to its text at this depth
 * (browsers cap their DOM the same way, Chromium at 512); JSON deeper than this is refused.
 * Our readers and node-html-markdown recurse per level, so without a cap a hostile file would
 * end on the JavaScript stack instead of with a stated limit.
 */
export const MAX_NESTING_DEPTH = 512;

/** Refuses JSON that nests arrays and objects deeper than the limit (scanned without recursion). */
export function assertJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING_DEPTH) {
        throw new ConversionError(
          'too_large',
          `The JSON file nests deeper than ${MAX_NESTING_DEPTH} levels, the most we convert.`,
        );
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/**
 * HTML with every element deeper than the limit replaced by its text, so the structure above
 * the limit converts as usual and no text is lost. Returns the input unchanged when it is shallower.
 */
export function capHtmlDepth(html: string): string {
  if (countTags(html) <= MAX_NESTING_DEPTH) return html;
  const root = parseHtml(html, { comment: false, blockTextElements: { script: true, noscript: true, style: true } });
  const stack: Array<[Node, number]> = [[root, 0]];
  let capped = false;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!(node instanceof HTMLElement)) continue;
    if (depth >= MAX_NESTING_DEPTH && node.childNodes.some((c) => c instanceof HTMLElement)) {
      node.childNodes = [new TextNode(escapeHtml(textOf(node)), node)];
      capped = true;
      continue;
    }
    for (const child of node.childNodes) stack.push([child, depth + 1]);
  }
  return capped ? root.toString() : html;
}

/** An upper bound on element depth: the number of start tags. */
function countTags(html: string): number {
  let count = 0;
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) count++;
  return count;
}

/** The text under an element, collected without recursion (node-html-parser's `text` recurses). */
function textOf(element: HTMLElement): string {
  const parts: string[] = [];
  const stack: Node[] = [element];
  while (stack.length) {
    const node = stack.pop()!;
    if (node instanceof TextNode) parts.push(node.text);
    else for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return parts.join(' ').replace(/\s+/g, ' ');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
