/** Inline Markdown: escaping and emphasis, links, images. Inputs are plain text unless named `md`. */

const ALWAYS = /[\\`*[\]]/g;

/** Escapes plain text so it renders as itself, without escaping harmless characters. */
export function escapeText(text: string): string {
  return text
    .replace(ALWAYS, (c) => `\\${c}`)
    .replace(/(^|[^\p{L}\p{N}])_|_(?=$|[^\p{L}\p{N}])/gu, (m) => m.replace('_', '\\_'))
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

/** Escapes what only matters at the start of a line (headings, quotes, list markers). */
export function escapeLineStart(md: string): string {
  return md
    .replace(/^(\s*)([#>+-])(?=\s|$)/, '$1\\$2')
    .replace(/^(\s*)(\d{1,9})([.)])(?=\s|$)/, '$1$2\\$3')
    .replace(/^(\s*)(={3,}|-{3,})\s*$/, '$1\\$2');
}

function wrap(md: string, marker: string): string {
  const trimmed = md.trim();
  if (!trimmed) return md;
  const lead = md.slice(0, md.indexOf(trimmed));
  const tail = md.slice(md.indexOf(trimmed) + trimmed.length);
  return `${lead}${marker}${trimmed}${marker}${tail}`;
}

export const bold = (md: string): string => wrap(md, '**');
export const italic = (md: string): string => wrap(md, '*');
export const strike = (md: string): string => wrap(md, '~~');

export function code(text: string): string {
  const ticks = (text.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = '`'.repeat(ticks + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

export function link(md: string, url: string): string {
  if (!url) return md;
  const safeUrl = /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
  return `[${md || safeUrl}](${safeUrl})`;
}

/** Images become alt-text placeholders: no data URIs, no binary. */
export function imagePlaceholder(alt: string): string {
  const text = alt.replace(/\s+/g, ' ').trim();
  return `![${escapeText(text || 'image')}](#)`;
}
