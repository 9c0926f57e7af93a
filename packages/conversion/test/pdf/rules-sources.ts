// Run by pdf-content-rules.test.ts in a child process under tsx (pdf.js is ES modules only, which
// jest's in-process runtime can't import): prints both rules sources' answers for the PDF on stdin.
import { openContentRules } from '../../src/readers/pdf/content-rules';
import { openPdf } from '../../src/readers/pdf/pdfjs';
import { pageRules, type Rule } from '../../src/readers/pdf/rulings';

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const input = Buffer.concat(chunks);
  const doc = await openPdf(input);
  const scanner = await openContentRules(input);
  const pdfjs: Rule[][] = [];
  // null where the scanner leaves the page to pdf.js.
  const scanned: Array<Rule[] | null> = [];
  for (let p = 1; p <= doc.numPages; p++) {
    pdfjs.push(await pageRules(doc, p));
    scanned.push(scanner?.pageRules(p) ?? null);
  }
  await doc.destroy();
  process.stdout.write(JSON.stringify({ opened: scanner !== undefined, pdfjs, scanned }));
}

void main();
