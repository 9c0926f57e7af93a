import type { Page } from '@markwright/contracts/src/structure';

/** E1's join rule: the pages' markdown, each trimmed, empty ones left out, joined by "\n\n", is the markdown trimmed. */
export function joinRuleHolds(markdown: string, pages: Page[]): boolean {
  const joined = pages
    .map((p) => p.markdown.trim())
    .filter((md) => md !== '')
    .join('\n\n');
  return joined === markdown.trim();
}

/** Lower-case words of letters and digits (Markdown syntax and punctuation left out). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** The share of `expected` words (counted with repeats) that are found among `actual`. */
export function wordShare(expected: string[], actual: string[]): number {
  if (!expected.length) return 1;
  const pool = new Map<string, number>();
  for (const w of actual) pool.set(w, (pool.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of expected) {
    const n = pool.get(w) ?? 0;
    if (n > 0) {
      found++;
      pool.set(w, n - 1);
    }
  }
  return found / expected.length;
}
