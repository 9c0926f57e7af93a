// Validates Kubernetes manifests (a JSON array on stdin) with the schemas of kubernetes-models and
// @kubernetes-models/keda; prints one result per manifest as JSON. A separate ESM process because
// those packages are ESM-only and the jest run is CommonJS.
import process from 'node:process';
import * as core from 'kubernetes-models';
import * as keda from '@kubernetes-models/keda';

const camel = (group) => group.replace(/[.-](\w)/g, (_, c) => c.toUpperCase());

function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const root = group.endsWith('keda.sh') ? keda : core;
  const groupModule = group === '' ? root : root[camel(group)];
  const versionModule = group === '' ? root[version] : groupModule?.[version];
  return versionModule?.[kind];
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = JSON.parse(input).map((manifest) => {
  const id = `${manifest.kind}/${manifest.metadata?.name}`;
  const Model = modelFor(manifest.apiVersion, manifest.kind);
  if (!Model) return { id, error: `no schema for ${manifest.apiVersion} ${manifest.kind}` };
  try {
    new Model(manifest).validate();
    return { id, error: null };
  } catch (err) {
    return { id, error: String(err.message ?? err) };
  }
});
process.stdout.write(JSON.stringify(results));
