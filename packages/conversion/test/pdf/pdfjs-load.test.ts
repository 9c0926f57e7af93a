import { execFileSync } from 'node:child_process';
import path from 'node:path';

describe('Loading pdf.js', () => {
  it('When pdf.js loads, then the hot built-ins it polyfills are the natives again and what it adds stays', () => {
    const script = path.join(__dirname, 'pdfjs-natives.ts');
    const out = execFileSync(process.execPath, [require.resolve('tsx/cli'), script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ push: true, parse: true, withResolvers: true });
  });
});
