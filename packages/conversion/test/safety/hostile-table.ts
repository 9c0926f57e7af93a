/**
 * The hostile-output table (issue 21): format × payload → does the output carry live script?
 * `npx tsx test/safety/hostile-table.ts [conversion-src-dir]` (default: this tree's src), so the
 * same documents can be run through an older tree for the "before" column. Prints JSON lines.
 */
import path from 'node:path';
import { hostileDocuments } from './hostile-documents';
import { liveScript, scriptFindings } from './script-scan';

async function main(): Promise<void> {
  const src = path.resolve(process.argv[2] ?? path.join(__dirname, '../../src'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the tree to judge is chosen at run time
  const { convertDocument } = require(path.join(src, 'convert')) as typeof import('../../src/convert');
  for (const doc of await hostileDocuments()) {
    let findings: string[];
    try {
      const { markdown, metadata } = await convertDocument(doc.bytes, doc.extension, { enhanced: false });
      findings = [...liveScript(markdown), ...scriptFindings(metadata.title), ...scriptFindings(metadata.author)];
    } catch (err) {
      findings = [`error: ${(err as Error).message.slice(0, 80)}`];
    }
    process.stdout.write(`${JSON.stringify({ format: doc.format, payload: doc.payload, findings })}\n`);
  }
}

void main();
