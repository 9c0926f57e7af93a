import { TRAILING_BLANKS } from '../readers/shared/text-decoding';

/**
 * Token optimisation of Markdown text the model cannot see into: the optimize-tokens filter's
 * handling of `raw` blocks (a `.txt` file, the enhanced model pass's answer, a `.md` front matter).
 * Everything else is optimised on the model (./optimize-tokens.ts, docs/decisions.md).
 *
 * Shrinks without changing what the text says: trailing spaces, runs of blank lines and spaces,
 * table padding and separator runs, empty emphasis and links, HTML comments, and boilerplate lines
 * repeated many times (page headers and footers). Fenced code is left untouched.
 */
export function optimizeMarkdownText(markdown: string): string {
  const optimized = mapOutsideCode(markdown, optimizeProse);
  const finalText = dropRepeatedBoilerplate(optimized)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return finalText ? `${finalText}\n` : '';
}

function mapOutsideCode(markdown: string, fn: (prose: string) => string): string {
  const parts = markdown.split(/(^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\2[ \t]*$)/m);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    if (i % 3 === 1) out.push(part);
    else if (i % 3 === 0) out.push(fn(part));
  }
  return out.join('');
}

function optimizeProse(text: string): string {
  return (
    text
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(TRAILING_BLANKS, '')
      .replace(/^\|(.*)\|$/gm, (row) => compactTableRow(row))
      // Empty emphasis stands alone: `**a** **b**` holds none (its `** **` closes one and opens the next).
      .replace(/(^|\s)(\*\*|__)\s*\2(?=\s|$)/gm, '$1')
      .replace(/\[\]\(([^)]*)\)/g, '')
      .replace(/(\S)[ \t]{2,}(?=\S)/g, '$1 ')
      .replace(/^(\s*)([-*_])(?:\s*\2){3,}\s*$/gm, '$1---')
      .replace(/\n{3,}/g, '\n\n')
  );
}

/** A GFM table row without cell padding: `|a|b|`, separators `|-|:-:|`. */
export function compactTableRow(row: string): string {
  const cells = row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
  if (cells.every((c) => /^:?-+:?$/.test(c))) {
    return `|${cells.map((c) => (c.startsWith(':') ? ':' : '') + '-' + (c.endsWith(':') && c.length > 1 ? ':' : '')).join('|')}|`;
  }
  return `|${cells.join('|')}|`;
}

/** Lines of prose repeated at least this often (running headers, footers) are kept once. */
export const BOILERPLATE_REPEATS = 3;

/** Lines of prose repeated BOILERPLATE_REPEATS times are kept once; lines inside fenced code are not prose. */
function dropRepeatedBoilerplate(text: string): string {
  const lines = text.split('\n');
  const inCode = fencedLines(lines);
  const counts = new Map<string, number>();
  lines.forEach((line, i) => {
    const key = line.trim();
    if (!inCode[i] && isBoilerplateCandidate(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  const seen = new Set<string>();
  return lines
    .filter((line, i) => {
      const key = line.trim();
      if (inCode[i] || (counts.get(key) ?? 0) < BOILERPLATE_REPEATS) return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join('\n');
}

/** Which lines belong to a fenced code block (fences included). */
function fencedLines(lines: string[]): boolean[] {
  let fence: string | undefined;
  return lines.map((line) => {
    if (fence === undefined) {
      const open = /^(`{3,}|~{3,})/.exec(line);
      if (open) fence = open[1];
      return open !== null;
    }
    if (new RegExp(`^${fence[0]}{${fence.length},}[ \\t]*$`).test(line)) fence = undefined;
    return true;
  });
}

/** A line that may be a running header or footer: short prose, not a table row, list item, heading or rule. */
export function isBoilerplateCandidate(line: string): boolean {
  return (
    line.length > 0 &&
    line.length <= 120 &&
    !line.startsWith('|') &&
    !/^[-*+]\s|^\d+[.)]\s|^#/.test(line) &&
    line !== '---'
  );
}
