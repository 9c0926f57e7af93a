import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Issue 19: the gateway uses the conversion library's format table (sniffing for file_url) but
 * must not load the library itself: no reader, no worker pool (piscina), no PDF/OCR engine. The
 * gateway's modules are loaded in a fresh Node process (through tsx, as the sources are
 * TypeScript), and what got loaded is read from Node's own module cache.
 */
describe('the gateway process', () => {
  it('loads the format table but no reader, worker pool or engine of the conversion library', () => {
    const root = path.join(__dirname, '../../..');
    const script = `
      require(${JSON.stringify(path.join(__dirname, '../src/gateway.ts'))});
      require(${JSON.stringify(path.join(__dirname, '../src/domain/resolve-convert-input.ts'))});
      console.log(JSON.stringify(Object.keys(require.cache)));`;
    const loaded: string[] = JSON.parse(
      execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: root, encoding: 'utf8' }),
    ).map((p: string) => p.replace(/\\/g, '/'));
    expect(loaded.some((p) => p.endsWith('packages/conversion/src/formats/table.ts'))).toBe(true);
    expect(loaded.filter((p) => /packages\/conversion\/src\/(readers|isolation|writers)\//.test(p))).toEqual([]);
    expect(loaded.filter((p) => /node_modules\/(piscina|pdfjs-dist|tesseract\.js|sharp)\//.test(p))).toEqual([]);
  });
});
