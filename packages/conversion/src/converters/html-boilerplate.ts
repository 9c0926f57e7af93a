import { parse } from 'node-html-parser';

/** Class or id words that mark navigation and page chrome rather than content. */
const CHROME_WORDS = new Set([
  'nav',
  'navbar',
  'navbox',
  'navigation',
  'menu',
  'sidebar',
  'breadcrumb',
  'breadcrumbs',
  'toc',
  'cookie',
  'cookies',
  'banner',
  'skip',
  'jump',
  'editsection',
  'catlinks',
  'dropdown',
  'languages',
  'share',
  'social',
  'noprint',
]);
const CHROME_SELECTOR =
  'nav, [role=navigation], [role=search], [role=banner], [role=contentinfo], [aria-hidden=true], script, style, noscript, template';

/** Removes navigation, menus, tables of contents and other page chrome so only the content is converted. */
export function removeBoilerplate(html: string): string {
  if (html.length < 2000 && !/<nav|role=|class=|aria-hidden/i.test(html)) return html;
  const root = parse(html, { comment: false });
  for (const el of root.querySelectorAll(CHROME_SELECTOR)) el.remove();
  for (const el of root.querySelectorAll('[class], [id]')) {
    const words = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`.toLowerCase().split(/[\s_-]+/);
    if (words.some((w) => CHROME_WORDS.has(w)) && !el.querySelector('h1, article, main')) el.remove();
  }
  // A page that is all chrome (a bare menu) keeps what it has rather than converting to nothing.
  const kept = root.textContent.replace(/\s+/g, '').length;
  return kept === 0 && parse(html).textContent.trim() ? html : root.toString();
}
