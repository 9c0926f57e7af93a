import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

let encoder: Tiktoken | undefined;

/** The o200k_base BPE tokenizer, loaded once from the ranks shipped in the package (no download). */
function tokenizer(): Tiktoken {
  // The rank table is several MB: required on first count, not when the library is imported.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  encoder ??= new Tiktoken(require('js-tiktoken/ranks/o200k_base') as TiktokenBPE);
  return encoder;
}

export function countTokens(text: string): number {
  return tokenizer().encode(text, [], []).length;
}

export interface TokenOptimization {
  original_tokens: number;
  optimized_tokens: number;
  reduction_percent: number;
}

/**
 * Shrinks Markdown without changing what it says: trailing spaces, runs of blank lines and spaces,
 * table padding and separator runs, empty emphasis and links, HTML comments, and boilerplate lines
 * repeated many times (page headers and footers). Fenced code is left untouched.
 */
export function optimizeTokens(markdown: string): { markdown: string; stats: TokenOptimization } {
  const optimized = mapOutsideCode(markdown, optimizeProse);
  const finalText = dropRepeatedBoilerplate(optimized)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const out = finalText ? `${finalText}\n` : '';
  const original = countTokens(markdown);
  const after = countTokens(out);
  return {
    markdown: out,
    stats: {
      original_tokens: original,
      optimized_tokens: after,
      reduction_percent: original === 0 ? 0 : Math.round((10000 * (original - after)) / original) / 100,
    },
  };
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
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/(\S)[ \t]{2,}(?=\S)/g, '$1 ')
    .replace(/^\|(.*)\|$/gm, (row) => compactTableRow(row))
    .replace(/(\*\*|__)\s*\1/g, '')
    .replace(/\[\]\(([^)]*)\)/g, '')
    .replace(/^(\s*)([-*_])(?:\s*\2){3,}\s*$/gm, '$1---')
    .replace(/\n{3,}/g, '\n\n');
}

function compactTableRow(row: string): string {
  const cells = row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
  if (cells.every((c) => /^:?-+:?$/.test(c))) {
    return `|${cells.map((c) => (c.startsWith(':') ? ':' : '') + '-' + (c.endsWith(':') && c.length > 1 ? ':' : '')).join('|')}|`;
  }
  return `|${cells.join('|')}|`;
}

/** Lines of prose repeated at least 3 times (running headers, footers) are kept once. */
function dropRepeatedBoilerplate(text: string): string {
  const lines = text.split('\n');
  const counts = new Map<string, number>();
  for (const line of lines) {
    const key = line.trim();
    if (isBoilerplateCandidate(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const seen = new Set<string>();
  return lines
    .filter((line) => {
      const key = line.trim();
      if ((counts.get(key) ?? 0) < 3) return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join('\n');
}

function isBoilerplateCandidate(line: string): boolean {
  return (
    line.length > 0 &&
    line.length <= 120 &&
    !line.startsWith('|') &&
    !/^[-*+]\s|^\d+[.)]\s|^#/.test(line) &&
    line !== '---'
  );
}
