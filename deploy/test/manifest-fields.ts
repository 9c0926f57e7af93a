import path from 'node:path';
import ts from 'typescript';
import { idOf, type Manifest } from './kustomize';

/**
 * Fields a manifest holds that its schema does not define. The JSON schemas Kubernetes publishes
 * allow unknown fields (the API server drops them, or refuses them under strict field
 * validation), so a misspelt `readinesProbe` would pass them silently. Here each manifest is
 * type-checked as an object literal against its kubernetes-models interface: TypeScript's
 * excess-property check names every field the schema lacks. Runs in memory; nothing is written.
 */
export function unknownFields(manifests: Manifest[]): string[] {
  const file = path.join(__dirname, '__rendered_manifests__.ts');
  const source = manifests
    .map((m, i) => {
      const { module, name } = typeOf(m);
      return `import type { ${name} as T${i} } from '${module}';\nexport const m${i}: T${i} = ${JSON.stringify(m)};`;
    })
    .join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (d.file?.fileName !== file || d.start === undefined) return message;
    // Two lines per manifest: its import, then its literal.
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${idOf(manifests[Math.floor(line / 2)]!)}: ${message}`;
  });
}

function typeOf(m: Manifest): { module: string; name: string } {
  const [group, version] = m.apiVersion.includes('/') ? m.apiVersion.split('/') : ['', m.apiVersion];
  const base = group!.endsWith('keda.sh')
    ? `@kubernetes-models/keda/${group}`
    : group === ''
      ? 'kubernetes-models'
      : `kubernetes-models/${group}`;
  return { module: `${base}/${version}/${m.kind}`, name: `I${m.kind}` };
}
