import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeConversionWorkers, convertIsolated } from '../../packages/conversion/src';
import { HELD_OUT_CASES, heldOutRecall, renderCase } from '../../packages/conversion/test/heldout/script-scans';

const limits = { timeoutMs: 300_000, maxMemoryMb: 2048 };

/**
 * Must-include on the held-out scans in other scripts (issue 23 point 2): Markwright, which finds
 * the script and orientation itself, beside the tesseract CLI told the right languages (one thread).
 * Accuracy only: time is `pnpm bench ocr-scripts` and the native bench's business.
 */
export async function runHeldOutScriptScans(only?: RegExp): Promise<string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-heldout-'));
  const cli = spawnSync('sh', ['-c', 'command -v tesseract']).status === 0;
  const lines = ['| case | kind | Markwright | tesseract CLI, told the language |', '|---|---|---|---|'];
  const byKind = new Map<string, { ours: number[]; cli: number[] }>();
  const all = { ours: [] as number[], cli: [] as number[] };
  try {
    for (const [i, c] of HELD_OUT_CASES.entries()) {
      if (only && !only.test(c.id)) continue;
      const { image, ext } = await renderCase(c, i);
      const { markdown } = await convertIsolated(image, ext, { enhanced: false }, limits).catch((err: Error) => ({
        markdown: `ERROR ${err.message}`,
      }));
      const ours = heldOutRecall(c.phrases, markdown);
      let theirs: number | undefined;
      if (cli) {
        const file = path.join(tmp, `${c.id}.${ext}`);
        fs.writeFileSync(file, image);
        const out = execFileSync('tesseract', [file, '-', '-l', c.languages], {
          env: { ...process.env, OMP_THREAD_LIMIT: '1' },
          stdio: ['ignore', 'pipe', 'ignore'],
        }).toString();
        theirs = heldOutRecall(c.phrases, out);
      }
      if (process.env.HELDOUT_SHOW) process.stderr.write(`--- ${c.id}\n${markdown}\n`);
      const kind = byKind.get(c.kind) ?? { ours: [], cli: [] };
      byKind.set(c.kind, kind);
      kind.ours.push(ours);
      all.ours.push(ours);
      if (theirs !== undefined) {
        kind.cli.push(theirs);
        all.cli.push(theirs);
      }
      lines.push(`| ${c.id} | ${c.kind} | ${ours.toFixed(2)} | ${theirs?.toFixed(2) ?? '–'} |`);
      process.stderr.write(`held-out ${c.id}: ${ours.toFixed(2)} / ${theirs?.toFixed(2) ?? '–'}\n`);
    }
  } finally {
    await closeConversionWorkers();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const mean = (v: number[]): string => (v.length ? (v.reduce((a, b) => a + b, 0) / v.length).toFixed(2) : '–');
  lines.push('', '| kind | Markwright | tesseract CLI, told the language |', '|---|---|---|');
  for (const [kind, v] of byKind) lines.push(`| ${kind} | ${mean(v.ours)} | ${mean(v.cli)} |`);
  lines.push(`| **all** | **${mean(all.ours)}** | **${mean(all.cli)}** |`);
  return `${lines.join('\n')}\n`;
}

if (require.main === module) {
  const only = process.argv[2] ? new RegExp(process.argv[2]) : undefined;
  void runHeldOutScriptScans(only).then((table) => process.stdout.write(table));
}
