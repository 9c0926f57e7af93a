import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

describe('offline operation', () => {
  it('When outbound connections are refused, then OCR and transcription still work and attempt no request', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-offline-'));
    try {
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="120"><rect width="100%" height="100%" fill="white"/><text x="20" y="70" font-size="40" font-family="DejaVu Sans, sans-serif">Offline reading works</text></svg>';
      const image = path.join(dir, 'text.png');
      fs.writeFileSync(image, await sharp(Buffer.from(svg)).png().toBuffer());
      const audio = path.join(dir, 'speech.wav');
      execFileSync('flite', ['-voice', 'slt', '-t', 'Hello world.', '-o', audio]);
      const out = execFileSync(
        TSX,
        [
          '--require',
          path.join(__dirname, 'network-guard.cjs'),
          path.join(__dirname, 'offline-child.ts'),
          image,
          audio,
        ],
        {
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      const report = JSON.parse(out.trim().split('\n').pop()!);
      expect(report.during).toEqual([]);
      expect(report.attempts).toEqual(['connect {"port":9,"host":"127.0.0.1"}']);
      expect(report.ocr).toContain('Offline reading works');
      // Moonshine writes punctuation ("Hello, world.").
      expect(report.speech.toLowerCase().replace(/[^a-z ]+/g, '')).toContain('hello world');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
