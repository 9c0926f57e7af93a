import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Type-checks test/types/contract-types.ts the way `pnpm typecheck` would, inside the test run. */
function diagnosticsOf(file: string): string[] {
  const root = path.join(__dirname, '..', '..', '..');
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const program = ts.createProgram([file], { ...config.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the client types', () => {
  it('are the contract types, field for field', () => {
    expect(diagnosticsOf(path.join(__dirname, 'types', 'contract-types.ts'))).toEqual([]);
  }, 60_000);

  it('a drifted type is caught (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(__dirname, 'types', '.drift-'));
    try {
      const file = path.join(dir, 'drift.ts');
      fs.writeFileSync(
        file,
        [
          "import type * as Contract from '../../../../contracts/src/api';",
          "import type * as Client from '../../../src/types';",
          'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
          'const yes = <T extends true>(): T | undefined => undefined;',
          "yes<Same<Omit<Client.ConversionListItem, 'extension'>, Contract.ConversionListItem>>();",
        ].join('\n'),
      );
      expect(diagnosticsOf(file).join('\n')).toMatch(/does not satisfy the constraint 'true'/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
