import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import type { ITriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { type Config, envSchema, loadConfig } from '@markwright/config';
import { topologyNames } from '@markwright/contracts';
import { containersOf, idOf, type Manifest, renderKustomization } from './kustomize';
import { unknownFields } from './manifest-fields';

const ROOT = path.join(__dirname, '../..');
const K8S = path.join(ROOT, 'deploy/k8s');
const OVERLAYS = ['dev', 'production'] as const;
const SERVICES = ['gateway', 'converter', 'dispatcher'] as const;
/** Settings that hold credentials: never in a ConfigMap, always from a Secret. */
const SECRET_SETTINGS = [
  'DATABASE_URL',
  'AMQP_URL',
  'REDIS_URL',
  'WEBHOOK_SECRET_KEY',
  'ENHANCED_AI_API_KEY',
  'TRANSCRIPTION_API_KEY',
];
const SETTINGS = Object.keys(envSchema.shape);
/** The longest piece of work each service finishes after SIGTERM. */
const LONGEST_WORK = {
  gateway: 'SYNC_TIMEOUT_MS',
  converter: 'CONVERSION_TIMEOUT_MS',
  dispatcher: 'WEBHOOK_TIMEOUT_MS',
} as const satisfies Record<(typeof SERVICES)[number], keyof Config>;

const rendered = Object.fromEntries(
  OVERLAYS.map((o) => [o, renderKustomization(path.join(K8S, 'overlays', o))]),
) as Record<(typeof OVERLAYS)[number], Manifest[]>;

/** Runs the kubernetes-models validators (ESM-only, so in their own node process). */
function validate(manifests: unknown[]): Array<{ id: string; error: string | null }> {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'validate-k8s.mjs')], {
    input: JSON.stringify(manifests),
    cwd: ROOT,
  });
  return JSON.parse(out.toString('utf8')) as Array<{ id: string; error: string | null }>;
}

function find<T>(ms: Manifest[], kind: string, name: string): T {
  const m = ms.find((x) => x.kind === kind && x.metadata.name === name);
  if (!m) throw new Error(`${kind}/${name} is not rendered`);
  return m as unknown as T;
}
const ofKind = <T>(ms: Manifest[], kind: string) => ms.filter((m) => m.kind === kind) as unknown as T[];
const configData = (ms: Manifest[]) => find<IConfigMap>(ms, 'ConfigMap', 'markwright-config').data ?? {};

/** The value a container sees: its own env value, else the ConfigMap's, else env.ts's default. */
function setting<K extends keyof Config>(ms: Manifest[], c: IContainer, name: K): Config[K] {
  const own = c.env?.find((e) => e.name === name)?.value;
  const value = own ?? configData(ms)[name];
  return loadConfig(value ? { [name]: value } : {})[name];
}

function service(ms: Manifest[], name: (typeof SERVICES)[number]) {
  const deployment = find<IDeployment>(ms, 'Deployment', `markwright-${name}`);
  const pod = deployment.spec!.template.spec!;
  const container = pod.containers.find((c) => c.name === name);
  if (!container) throw new Error(`markwright-${name} has no ${name} container`);
  return { deployment, pod, container };
}

/** MiB in a Kubernetes memory quantity (Mi or Gi). */
function mebibytes(quantity: unknown): number {
  const m = /^(\d+(?:\.\d+)?)(Mi|Gi)$/.exec(String(quantity));
  if (!m) throw new Error(`unexpected memory quantity ${String(quantity)}`);
  return Number(m[1]) * (m[2] === 'Gi' ? 1024 : 1);
}

describe.each(OVERLAYS)('Kubernetes overlay %s', (overlay) => {
  const ms = rendered[overlay];

  it('When the overlay is rendered, then every manifest validates against the Kubernetes and KEDA schemas', () => {
    const results = validate(ms);
    expect(results.map((r) => r.id)).toEqual(ms.map(idOf));
    expect(results.filter((r) => r.error !== null)).toEqual([]);
    expect(new Set(ms.map((m) => m.kind))).toEqual(
      new Set([
        'ConfigMap',
        'Deployment',
        'Service',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
        'ScaledObject',
        'TriggerAuthentication',
        ...(overlay === 'dev' ? ['Secret'] : []),
      ]),
    );
  });

  it('When a manifest is rendered, then it holds no field its schema does not define (a misspelt key is not ignored)', () => {
    expect(unknownFields(ms)).toEqual([]);
  });

  it('When KEDA scales converters, then its RabbitMQ trigger counts the jobs queue the converters consume, CONVERTER_CONCURRENCY jobs per converter', () => {
    const scaled = find<IScaledObject>(ms, 'ScaledObject', 'markwright-converter');
    const { container } = service(ms, 'converter');
    expect(scaled.spec.scaleTargetRef.name).toBe('markwright-converter');
    expect(scaled.spec.triggers).toHaveLength(1);
    const [trigger] = scaled.spec.triggers;
    expect(trigger!.type).toBe('rabbitmq');
    expect(trigger!.metadata.queueName).toBe(topologyNames(setting(ms, container, 'QUEUE_PREFIX')).jobsQueue);
    expect(trigger!.metadata.mode).toBe('QueueLength');
    // The management API's count includes jobs being converted (unacknowledged), not only waiting ones.
    expect(trigger!.metadata.protocol).toBe('http');
    expect(Number(trigger!.metadata.value)).toBe(setting(ms, container, 'CONVERTER_CONCURRENCY'));
    // The broker's address and credentials come from a Secret, never from the trigger itself.
    expect(trigger!.metadata.host).toBeUndefined();
    const auth = find<ITriggerAuthentication>(ms, 'TriggerAuthentication', trigger!.authenticationRef!.name);
    expect(auth.spec.secretTargetRef).toEqual([expect.objectContaining({ parameter: 'host' })]);
  });

  it('When a container reads its settings, then each name is one env.ts knows, every setting is provided, and secrets come only from Secrets', () => {
    const data = configData(ms);
    const containers = containersOf(ms) as IContainer[];
    const envNames = containers.flatMap((c) => (c.env ?? []).map((e) => e.name));
    expect([...Object.keys(data), ...envNames].filter((n) => !SETTINGS.includes(n))).toEqual([]);
    const provided = new Set([...Object.keys(data), ...envNames]);
    expect(SETTINGS.filter((n) => !provided.has(n))).toEqual([]);
    expect(Object.keys(data).filter((n) => SECRET_SETTINGS.includes(n))).toEqual([]);
    for (const c of containers) {
      for (const e of (c.env ?? []).filter((e) => SECRET_SETTINGS.includes(e.name))) {
        expect({ name: e.name, secretKey: e.valueFrom?.secretKeyRef?.key }).toEqual({
          name: e.name,
          secretKey: e.name,
        });
      }
      expect(c.envFrom).toEqual([{ configMapRef: { name: 'markwright-config' } }]);
    }
  });

  it('When a service starts with these settings, then its configuration validates (the ConfigMap holds no bad value)', () => {
    for (const name of SERVICES) {
      const { container } = service(ms, name);
      const env: Record<string, string> = { ...configData(ms) };
      for (const e of container.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
      // The Secrets are not in the manifests: stand-ins of the right shape.
      Object.assign(env, { DATABASE_URL: 'postgresql://u:p@db:5432/mw', AMQP_URL: 'amqp://u:p@mq:5672' });
      expect(() => loadConfig(env)).not.toThrow();
    }
  });

  it('When a Deployment runs, then it has /readyz and /livez probes on the port its server listens on, requests and limits, and a grace period longer than a conversion and than its own longest piece of work', () => {
    expect(
      ofKind<IDeployment>(ms, 'Deployment')
        .map((d) => d.metadata!.name)
        .sort(),
    ).toEqual(SERVICES.map((s) => `markwright-${s}`).sort());
    for (const name of SERVICES) {
      const { pod, container } = service(ms, name);
      const listens = setting(ms, container, name === 'gateway' ? 'PORT' : 'HEALTH_PORT');
      const portOf = (p: string | number | undefined) =>
        typeof p === 'string' ? container.ports?.find((x) => x.name === p)?.containerPort : p;
      expect({
        name,
        ready: container.readinessProbe?.httpGet?.path,
        live: container.livenessProbe?.httpGet?.path,
      }).toEqual({
        name,
        ready: '/readyz',
        live: '/livez',
      });
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
        expect({ name, port: portOf(probe?.httpGet?.port) }).toEqual({ name, port: listens });
      }
      const { requests, limits } = container.resources ?? {};
      expect({
        name,
        cpu: Boolean(requests?.cpu),
        memory: mebibytes(limits?.memory) >= mebibytes(requests?.memory),
      }).toEqual({
        name,
        cpu: true,
        memory: true,
      });
      const work = Math.max(
        setting(ms, container, LONGEST_WORK[name]),
        setting(ms, container, 'CONVERSION_TIMEOUT_MS'),
      );
      expect({ name, graceLongerThanWork: (pod.terminationGracePeriodSeconds ?? 30) > work / 1000 }).toEqual({
        name,
        graceLongerThanWork: true,
      });
    }
  });

  it('When a converter holds CONVERTER_CONCURRENCY conversions, then it has a core for each, memory room for each at its heap limit, and a grace period that outlasts a conversion', () => {
    const { pod, container } = service(ms, 'converter');
    const concurrency = setting(ms, container, 'CONVERTER_CONCURRENCY');
    const heap = setting(ms, container, 'CONVERSION_MAX_MEMORY_MB');
    expect(mebibytes(container.resources?.limits?.memory)).toBeGreaterThan(concurrency * heap);
    // About one core per conversion in progress, and no CPU limit to throttle a conversion towards its deadline.
    expect(Number(container.resources?.requests?.cpu)).toBeGreaterThanOrEqual(concurrency);
    expect(container.resources?.limits?.cpu).toBeUndefined();
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(setting(ms, container, 'CONVERSION_TIMEOUT_MS') / 1000);
  });

  it('When a workload is autoscaled, then the HPA or ScaledObject targets it and its Deployment leaves the replica count to the autoscaler', () => {
    const hpa = find<IHorizontalPodAutoscaler>(ms, 'HorizontalPodAutoscaler', 'markwright-gateway');
    expect(hpa.spec!.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'markwright-gateway' });
    expect(hpa.spec!.maxReplicas).toBeGreaterThan(hpa.spec!.minReplicas ?? 1);
    const scaled = find<IScaledObject>(ms, 'ScaledObject', 'markwright-converter');
    expect(scaled.spec.maxReplicaCount).toBeGreaterThan(scaled.spec.minReplicaCount ?? 0);
    for (const name of ['gateway', 'converter'] as const) {
      expect({ name, replicas: service(ms, name).deployment.spec!.replicas }).toEqual({ name, replicas: undefined });
    }
  });

  it('When a node is drained, then every Deployment has one PodDisruptionBudget selecting its pods that lets one go at a time', () => {
    const pdbs = ofKind<IPodDisruptionBudget>(ms, 'PodDisruptionBudget');
    for (const d of ofKind<IDeployment>(ms, 'Deployment')) {
      const labels = d.spec!.template.metadata!.labels ?? {};
      const covering = pdbs.filter((p) =>
        Object.entries(p.spec!.selector!.matchLabels ?? {}).every(([k, v]) => labels[k] === v),
      );
      expect({ deployment: d.metadata!.name, budgets: covering.map((p) => p.spec!.maxUnavailable) }).toEqual({
        deployment: d.metadata!.name,
        budgets: [1],
      });
    }
  });

  it('When a release rolls out, then the pods of each Deployment run the migrations (the migrate command of compose, with the database URL) in an init container before their service, and every command is the one docker-compose.yml runs', () => {
    const compose = YAML.parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { command?: string[] }>;
    };
    for (const name of SERVICES) {
      const { pod, container } = service(ms, name);
      const inits = pod.initContainers ?? [];
      expect({ name, inits: inits.map((c) => c.command) }).toEqual({
        name,
        inits: [compose.services.migrate!.command],
      });
      expect(inits[0]!.image).toBe(container.image);
      expect(inits[0]!.env?.map((e) => e.name)).toContain('DATABASE_URL');
      expect(container.command).toEqual(compose.services[name]!.command);
    }
  });

  it('When the overlay is applied again with a new image, then nothing Kubernetes keeps immutable changes under the same name (the pod template of a Job, the selector of a Deployment)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-upgrade-'));
    try {
      const image = containersOf(ms)[0]!.image.replace(/:[^/:]*$/, '');
      fs.writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        YAML.stringify({
          resources: [path.relative(dir, path.join(K8S, 'overlays', overlay))],
          images: [{ name: image, newTag: 'next-release' }],
        }),
      );
      const next = renderKustomization(dir);
      expect(containersOf(next).map((c) => c.image)).toEqual(containersOf(ms).map(() => `${image}:next-release`));
      const immutable = (m: Manifest) =>
        m.kind === 'Job' ? m.spec : m.kind === 'Deployment' ? (m.spec as { selector: unknown }).selector : undefined;
      for (const m of next) {
        const before = ms.find((x) => idOf(x) === idOf(m));
        if (before)
          expect({ id: idOf(m), immutable: immutable(m) }).toEqual({ id: idOf(m), immutable: immutable(before) });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('When a pod runs, then it runs as a non-root user without privilege escalation', () => {
    const pods = [
      ...ofKind<IDeployment>(ms, 'Deployment').map((d) => ({ id: d.metadata!.name, pod: d.spec!.template.spec! })),
      ...ofKind<IJob>(ms, 'Job').map((j) => ({ id: j.metadata!.name, pod: j.spec!.template.spec! })),
    ];
    for (const { id, pod } of pods) {
      expect({ id, nonRoot: pod.securityContext?.runAsNonRoot }).toEqual({ id, nonRoot: true });
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        expect({ id, escalation: c.securityContext?.allowPrivilegeEscalation }).toEqual({ id, escalation: false });
      }
    }
  });
});

describe('Kubernetes overlays compared', () => {
  it('When the production overlay is rendered, then the gateway requires REDIS_URL, no Secret is committed, and images are pinned to a registry', () => {
    const ms = rendered.production;
    const redis = service(ms, 'gateway').container.env?.find((e) => e.name === 'REDIS_URL');
    expect(redis?.valueFrom?.secretKeyRef).toEqual({ name: 'markwright-secrets', key: 'REDIS_URL' });
    expect(ofKind<ISecret>(ms, 'Secret')).toEqual([]);
    for (const c of containersOf(ms)) expect(c.image).toMatch(/^[a-z0-9.-]+\/.+:\d+\.\d+\.\d+$/);
    expect(new Set(ms.map((m) => m.metadata.namespace))).toEqual(new Set(['markwright']));
  });

  it('When the dev overlay is rendered, then its Secrets hold every key the pods and KEDA read', () => {
    const ms = rendered.dev;
    const secrets = new Map(
      ofKind<ISecret>(ms, 'Secret').map((s) => [s.metadata!.name, Object.keys(s.stringData ?? {})]),
    );
    const refs = [
      ...(containersOf(ms) as IContainer[]).flatMap((c) =>
        (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [])),
      ),
      ...ofKind<ITriggerAuthentication>(ms, 'TriggerAuthentication').flatMap((t) => t.spec.secretTargetRef ?? []),
    ] as Array<{ name: string; key: string; optional?: boolean }>;
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => !r.optional && !secrets.get(r.name)?.includes(r.key))).toEqual([]);
  });
});

describe('the manifest checks themselves', () => {
  it('When a manifest breaks the schema (a string replica count, a ScaledObject without triggers), then validation reports it', () => {
    const broken = structuredClone(find<IDeployment>(rendered.dev, 'Deployment', 'markwright-dispatcher'));
    (broken.spec as unknown as Record<string, unknown>).replicas = 'two';
    const scaler = structuredClone(find<IScaledObject>(rendered.dev, 'ScaledObject', 'markwright-converter'));
    delete (scaler.spec as Partial<IScaledObject['spec']>).triggers;
    const results = validate([broken, scaler]);
    expect(results[0]!.error).toMatch(/replicas must be integer/);
    expect(results[1]!.error).toMatch(/triggers/);
  });

  it('When a manifest holds a misspelt field, then it is reported with its path', () => {
    const deployment = structuredClone(find<Manifest>(rendered.dev, 'Deployment', 'markwright-gateway'));
    const pod = (deployment.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }).template
      .spec;
    pod.containers[0]!.readinesProbe = pod.containers[0]!.readinessProbe;
    expect(unknownFields([deployment])).toEqual([
      expect.stringMatching(/Deployment\/markwright-gateway: .*readinesProbe/),
    ]);
  });

  it('When a kustomization uses a field the renderer does not know, or a patch does not apply, then rendering fails', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-kustomize-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'cm.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a }\ndata: { X: "1" }\n',
      );
      const write = (k: string) => fs.writeFileSync(path.join(dir, 'kustomization.yaml'), `resources: [cm.yaml]\n${k}`);
      write('configMapGenerator: []\n');
      expect(() => renderKustomization(dir)).toThrow(/unsupported field\(s\) configMapGenerator/);
      write('patches:\n  - target: { kind: ConfigMap, name: b }\n    patch: "[{op: remove, path: /data/X}]"\n');
      expect(() => renderKustomization(dir)).toThrow(/matches nothing/);
      write('patches:\n  - target: { kind: ConfigMap, name: a }\n    patch: "[{op: remove, path: /data/Y}]"\n');
      expect(() => renderKustomization(dir)).toThrow(/does not apply/);
      write(
        'patches:\n  - target: { kind: ConfigMap, name: a }\n    patch: "[{op: replace, path: /data/X, value: \'2\'}]"\n',
      );
      expect(renderKustomization(dir)).toEqual([
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { X: '2' } },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
