import fs from 'node:fs';
import path from 'node:path';
import { applyPatch, type Operation } from 'fast-json-patch';
import YAML from 'yaml';

/**
 * The subset of Kustomize our manifests use, rendered in-process so the tests need no binary:
 * `resources` (files and directories), JSON 6902 `patches` with a target, `images` and
 * `namespace`. Anything else in a kustomization.yaml is refused rather than silently ignored,
 * and a patch that matches nothing or does not apply fails the render, as kustomize does.
 */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
};

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  patches?: Array<{ target: { kind: string; name: string; group?: string; version?: string }; patch: string }>;
}

const KNOWN_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'images', 'patches']);

export const idOf = (m: Manifest) => `${m.kind}/${m.metadata.name}`;

export function renderKustomization(dir: string): Manifest[] {
  const k = YAML.parse(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
  const unknown = Object.keys(k).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length) throw new Error(`${dir}/kustomization.yaml: unsupported field(s) ${unknown.join(', ')}`);

  const manifests: Manifest[] = [];
  for (const resource of k.resources ?? []) {
    const full = path.join(dir, resource);
    const loaded = fs.statSync(full).isDirectory() ? renderKustomization(full) : readManifests(full);
    for (const m of loaded) {
      if (manifests.some((other) => idOf(other) === idOf(m))) throw new Error(`${full}: ${idOf(m)} defined twice`);
      manifests.push(m);
    }
  }

  for (const { target, patch } of k.patches ?? []) {
    const matches = manifests.filter(
      (m) =>
        m.kind === target.kind &&
        m.metadata.name === target.name &&
        (target.group === undefined || groupOf(m) === target.group) &&
        (target.version === undefined || m.apiVersion.split('/').pop() === target.version),
    );
    if (matches.length === 0) throw new Error(`${dir}: patch target ${target.kind}/${target.name} matches nothing`);
    const ops = YAML.parse(patch) as Operation[];
    if (!Array.isArray(ops)) throw new Error(`${dir}: only JSON 6902 patches (a list of operations) are supported`);
    for (const m of matches) {
      try {
        applyPatch(m, ops, true, true);
      } catch (err) {
        throw new Error(`${dir}: patch on ${idOf(m)} does not apply: ${(err as Error).message.split('\n')[0]}`, {
          cause: err,
        });
      }
    }
  }

  for (const image of k.images ?? []) {
    for (const container of containersOf(manifests)) {
      if (imageName(container.image) !== image.name) continue;
      const tag = image.newTag ?? container.image.slice(imageName(container.image).length + 1);
      container.image = `${image.newName ?? image.name}${tag ? `:${tag}` : ''}`;
    }
  }

  if (k.namespace) for (const m of manifests) m.metadata.namespace = k.namespace;
  return manifests;
}

function readManifests(file: string): Manifest[] {
  return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
}

const groupOf = (m: Manifest) => (m.apiVersion.includes('/') ? m.apiVersion.split('/')[0] : '');

const imageName = (image: string) => image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');

export interface Container {
  name: string;
  image: string;
  [key: string]: unknown;
}

/** Containers of every pod template (Deployments, Jobs), init containers included. */
export function containersOf(manifests: Manifest[]): Container[] {
  return manifests.flatMap((m) => {
    const pod = podSpecOf(m);
    return pod ? [...(pod.initContainers ?? []), ...(pod.containers ?? [])] : [];
  });
}

export function podSpecOf(m: Manifest): { containers?: Container[]; initContainers?: Container[] } | undefined {
  const spec = m.spec as { template?: { spec?: { containers?: Container[] } } } | undefined;
  return spec?.template?.spec;
}
