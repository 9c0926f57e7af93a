// entities loads on the first target that needs decoding (no link of most documents does): not with every worker.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const entities = () => require('entities') as typeof import('entities');

/**
 * Which link and image targets the Markdown keeps: the one scheme rule for every format (readers
 * may filter more; this is the guarantee). A renderer decodes entities and backslash escapes in a
 * destination and a browser drops the controls and white space in it, so the target is judged in
 * every form those steps can give it: `java&#x09;script:`, `&#106;avascript:`, `\u0000javascript:`.
 */

/** Schemes that open a page, a mail or a call, never run anything. */
const SAFE_SCHEMES = new Set(['http', 'https', 'ftp', 'mailto', 'tel']);

/** A scheme as a URL parser reads it: letters first, up to the first colon, before any `/`, `?` or `#`. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** What a browser ignores in an address (C0 controls, space, tab, line breaks), and the Unicode white space and format characters that only hide a scheme. */
const IGNORED = /[\u0000-\u0020\u007f-\u009f\s\p{Cf}]/gu;

/** Rounds of decoding tried: a double-encoded `&amp;#106;` is two; more is only an attacker's. */
const MAX_DECODING_ROUNDS = 4;

/** Whether a link or image may keep this target: http(s), ftp, mailto, tel, relative or `#`, in every spelling. */
export function isSafeTarget(url: string): boolean {
  let form = url;
  for (let round = 0; round <= MAX_DECODING_ROUNDS; round++) {
    const bare = form.replace(IGNORED, '');
    const scheme = SCHEME.exec(bare)?.[1];
    // Decoding never changes a scheme that is written out plainly: `http:` stays what it is.
    if (scheme !== undefined) return SAFE_SCHEMES.has(scheme.toLowerCase());
    const next = decoded(bare);
    if (next === form) return true;
    form = next;
  }
  // Still changing after every round a real address needs: not one to keep.
  return false;
}

/** One round of what a renderer and a browser decode: backslash escapes, character references, percent escapes. */
function decoded(url: string): string {
  return entities()
    .decodeHTML(url.replace(/\\([!-/:-@[-`{-~])/g, '$1'))
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
