/** The URL of a Word HYPERLINK field instruction (DOCX and DOC); links to bookmarks (\l) give none. */
export function hyperlinkTarget(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\s+(?:\\l\s+)?"([^"]+)"/i.exec(instr) ?? /^\s*HYPERLINK\s+(\S+)/i.exec(instr);
  if (!m) return undefined;
  return /\\l\s/.test(instr.slice(0, instr.indexOf(m[1]!))) ? undefined : m[1];
}
