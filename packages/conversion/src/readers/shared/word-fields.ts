/**
 * The URL of a Word HYPERLINK field instruction (DOCX, DOC and RTF); links to bookmarks (`\l`, or a
 * target that starts with `#`, as LibreOffice writes a table of contents' entries) give none.
 */
export function hyperlinkTarget(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\s+(?:\\l\s+)?"([^"]+)"/i.exec(instr) ?? /^\s*HYPERLINK\s+(\S+)/i.exec(instr);
  if (!m || m[1]!.startsWith('#')) return undefined;
  return /\\l\s/.test(instr.slice(0, instr.indexOf(m[1]!))) ? undefined : m[1];
}
