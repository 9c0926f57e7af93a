import fs from 'node:fs';
import path from 'node:path';
import { type Copy, DockerfileParser, type Env, type Instruction } from 'dockerfile-ast';
import YAML from 'yaml';
import { envSchema } from '@markwright/config';

/**
 * What deploy/Dockerfile and docker-compose.yml may name, read from the code itself, and the
 * checks that hold them to it. No Docker engine runs here, so parsing is how the image and the
 * stack are tested; each check returns the problems it found (none: an empty list).
 */
export const ROOT = path.join(__dirname, '..', '..');

/** Apt packages, npm packages and tools that only tests or builds need: never in the runtime stage. */
const BUILD_OR_TEST_ONLY = [
  'gcc',
  'g++',
  'make',
  'build-essential',
  'python3',
  'python',
  'typescript',
  'tsx',
  'ts-node',
  'jest',
  'esbuild',
  'pnpm',
];
/** Standard Node variables an image may set besides Markwright's own. */
const NODE_VARIABLES = ['NODE_ENV', 'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS'];
/** pnpm's own commands (everything else after `pnpm` must be a root script). */
const PNPM_COMMANDS = ['install', 'add', 'deploy', 'prune', 'exec', 'run', 'fetch', '--filter', '-r'];

export interface RepoFacts {
  envNames: Set<string>;
  defaultPort: number;
  /** The longest piece of work a service finishes after SIGTERM with the default settings (ms). */
  longestWorkMs: number;
  /** `<package>/dist/<name>.js` for every entry a package.json names in buildEntries. */
  buildOutputs: Set<string>;
  rootScripts: Set<string>;
  runtimeAptPackages: string[];
  testAptPackages: string[];
  /** Workspace packages whose production dependencies include a build or test tool. */
  prodDependencyProblems: string[];
}

/** A bash array of setup-system.sh, with the arrays it includes ("${OTHER[@]}") expanded. */
function shellArray(script: string, name: string): string[] {
  const match = new RegExp(`^${name}=\\(([^)]*)\\)`, 'm').exec(script);
  if (!match) throw new Error(`${name} not found in scripts/setup-system.sh`);
  return match[1]!
    .trim()
    .split(/\s+/)
    .flatMap((word) => {
      const included = /^"?\$\{(\w+)\[@\]\}"?$/.exec(word);
      return included ? shellArray(script, included[1]!) : [word];
    });
}

export function readRepoFacts(root = ROOT): RepoFacts {
  const manifests = [
    '.',
    ...['packages', 'services'].flatMap((g) => fs.readdirSync(path.join(root, g)).map((n) => `${g}/${n}`)),
  ]
    .filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')))
    .map((dir) => ({ dir, json: JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')) }));
  const buildOutputs = new Set<string>();
  const prodDependencyProblems: string[] = [];
  for (const { dir, json } of manifests) {
    for (const name of Object.keys(json.buildEntries ?? {}))
      buildOutputs.add(path.posix.join(dir, 'dist', `${name}.js`));
    for (const dep of Object.keys(json.dependencies ?? {})) {
      if (BUILD_OR_TEST_ONLY.includes(dep) || dep.startsWith('@swc/') || dep.startsWith('@types/')) {
        prodDependencyProblems.push(`${dir}/package.json: ${dep} is a production dependency`);
      }
    }
  }
  const setup = fs.readFileSync(path.join(root, 'scripts', 'setup-system.sh'), 'utf8');
  const rootManifest = manifests.find((m) => m.dir === '.')!.json;
  return {
    envNames: new Set(Object.keys(envSchema.shape)),
    defaultPort: envSchema.parse({}).PORT,
    longestWorkMs: Math.max(
      envSchema.parse({}).CONVERSION_TIMEOUT_MS,
      envSchema.parse({}).SYNC_TIMEOUT_MS,
      envSchema.parse({}).WEBHOOK_TIMEOUT_MS,
    ),
    buildOutputs,
    rootScripts: new Set(Object.keys(rootManifest.scripts ?? {})),
    runtimeAptPackages: shellArray(setup, 'RUNTIME_PACKAGES'),
    testAptPackages: shellArray(setup, 'TEST_PACKAGES'),
    prodDependencyProblems,
  };
}

/** `process.env.NAME` reads of a script, so a health check can't depend on a variable nothing sets. */
function envReads(file: string): string[] {
  return [...fs.readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z0-9_]+)/g)].map((m) => m[1]!);
}

function jsonCommand(content: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(content);
    return Array.isArray(parsed) ? parsed.map(String) : undefined;
  } catch {
    return undefined;
  }
}

/** A `node <file>` command: the file must be a build output or a file of the repo. */
function checkNodeCommand(where: string, command: string[] | undefined, facts: RepoFacts, root: string): string[] {
  if (!command || command[0] !== 'node' || !command[1])
    return [`${where}: runs ${JSON.stringify(command)}, not node <file>`];
  const file = command[1];
  if (facts.buildOutputs.has(file) || fs.existsSync(path.join(root, file))) return [];
  return [`${where}: ${file} is neither a build output (buildEntries) nor a file of the repo`];
}

interface Stage {
  name: string;
  instructions: Instruction[];
}

function stagesOf(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const args = instruction.getArguments().map((a) => a.getValue());
      stages.push({ name: args[2] ?? String(stages.length), instructions: [] });
    }
    stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

/** Apt packages a RUN line installs, the ones setup-system.sh installs included. */
function aptPackagesOf(run: string, facts: RepoFacts): string[] {
  const packages: string[] = [];
  const install = /apt-get\s+install\s+([^&|;]*)/.exec(run);
  if (install) packages.push(...install[1]!.split(/\s+/).filter((w) => w && !w.startsWith('-')));
  if (/setup-system\.sh/.test(run)) {
    packages.push(...facts.runtimeAptPackages);
    if (!/--runtime-only/.test(run)) packages.push(...facts.testAptPackages);
  }
  return packages;
}

export function checkDockerfile(text: string, facts: RepoFacts, root = ROOT): string[] {
  const problems: string[] = [];
  if (/^#\s*syntax\s*=/m.test(text)) {
    problems.push('Dockerfile: a # syntax= directive makes the builder pull its frontend image from Docker Hub');
  }
  const stages = stagesOf(text);
  if (stages.length < 2) return ['Dockerfile: needs a build stage and a runtime stage'];
  const runtime = stages.at(-1)!;
  const keyword = (stage: Stage, k: string) => stage.instructions.filter((i) => i.getKeyword() === k);

  for (const stage of stages) {
    for (const env of keyword(stage, 'ENV') as Env[]) {
      for (const name of env.getProperties().map((p) => p.getName())) {
        if (!facts.envNames.has(name) && !NODE_VARIABLES.includes(name)) {
          problems.push(
            `Dockerfile stage ${stage.name}: ENV ${name} is not in the config schema (packages/config/src/env.ts)`,
          );
        }
      }
    }
    for (const copy of keyword(stage, 'COPY') as Copy[]) {
      if (copy.getFlags().some((f) => f.getName() === 'from')) continue;
      const sources = copy
        .getArguments()
        .map((a) => a.getValue())
        .slice(0, -1);
      for (const source of sources) {
        if (!fs.existsSync(path.join(root, source))) problems.push(`Dockerfile: COPY ${source} does not exist`);
      }
    }
    for (const run of keyword(stage, 'RUN')) {
      const content = run.getArgumentsContent() ?? '';
      for (const [, script] of content.matchAll(/\bpnpm\s+(?:--\S+\s+)*([a-z][\w:-]*)/g)) {
        if (!PNPM_COMMANDS.includes(script!) && !facts.rootScripts.has(script!)) {
          problems.push(`Dockerfile: pnpm ${script} is not a script of package.json`);
        }
      }
      for (const [, file] of content.matchAll(/\b(?:bash|sh|node)\s+(\S+\.(?:sh|js))/g)) {
        const copied = file!.startsWith('/tmp/') ? `scripts/${path.basename(file!)}` : file!;
        if (!fs.existsSync(path.join(root, copied))) problems.push(`Dockerfile: ${file} does not exist`);
      }
    }
  }

  const build = stages.slice(0, -1);
  const buildRuns = build.flatMap((s) => keyword(s, 'RUN')).map((r) => r.getArgumentsContent() ?? '');
  if (!buildRuns.some((r) => /pnpm build\b/.test(r))) problems.push('Dockerfile: no build stage runs pnpm build');
  if (!buildRuns.some((r) => /pnpm (install|deploy)\b[^&]*--prod\b/.test(r))) {
    problems.push('Dockerfile: no build stage narrows node_modules to production dependencies (--prod)');
  }

  for (const run of keyword(runtime, 'RUN')) {
    const content = run.getArgumentsContent() ?? '';
    const forbidden = [...facts.testAptPackages, ...BUILD_OR_TEST_ONLY];
    for (const pkg of aptPackagesOf(content, facts)) {
      if (forbidden.includes(pkg))
        problems.push(`Dockerfile runtime stage: installs ${pkg}, a build or test-only package`);
    }
    if (aptPackagesOf(content, facts).length > 0 && !/apt-get\s+clean\b/.test(content)) {
      problems.push(
        'Dockerfile runtime stage: installs apt packages without apt-get clean, so the .deb files stay in the image',
      );
    }
    if (/\b(npm|pnpm|yarn)\s+(install|add|i)\b/.test(content)) {
      problems.push(
        'Dockerfile runtime stage: installs npm packages (they come from the build stage, production only)',
      );
    }
  }
  problems.push(...facts.prodDependencyProblems);

  const user = keyword(runtime, 'USER').at(-1)?.getArguments()[0]?.getValue();
  if (!user || user === 'root' || user.split(':')[0] === '0') problems.push('Dockerfile runtime stage: runs as root');

  const health = keyword(runtime, 'HEALTHCHECK').at(-1);
  if (!health) problems.push('Dockerfile runtime stage: no HEALTHCHECK');
  else {
    const command = jsonCommand((health.getArgumentsContent() ?? '').replace(/^.*?\bCMD\s+/, ''));
    problems.push(...checkNodeCommand('Dockerfile HEALTHCHECK', command, facts, root));
    const copies = [...build.flatMap((st) => keyword(st, 'RUN')), ...keyword(runtime, 'COPY')].map(
      (i) => i.getArgumentsContent() ?? '',
    );
    if (command?.[1] && !copies.some((c) => c.includes(command[1]!))) {
      problems.push(`Dockerfile: ${command[1]} (HEALTHCHECK) is not copied into the runtime image`);
    }
    if (command?.[1] && fs.existsSync(path.join(root, command[1]))) {
      for (const name of envReads(path.join(root, command[1]))) {
        if (!facts.envNames.has(name)) problems.push(`${command[1]}: reads ${name}, not in the config schema`);
      }
    }
  }
  for (const cmd of [...keyword(runtime, 'CMD'), ...keyword(runtime, 'ENTRYPOINT')]) {
    problems.push(
      ...checkNodeCommand(`Dockerfile ${cmd.getKeyword()}`, jsonCommand(cmd.getArgumentsContent() ?? ''), facts, root),
    );
  }
  for (const expose of keyword(runtime, 'EXPOSE')) {
    const port = Number(expose.getArguments()[0]?.getValue().split('/')[0]);
    if (port !== facts.defaultPort)
      problems.push(`Dockerfile: EXPOSE ${port} is not the gateway's PORT (${facts.defaultPort})`);
  }
  return problems;
}

interface ComposeService {
  build?: { dockerfile?: string; context?: string } | string;
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean> | string[];
  ports?: (string | number | { target?: number })[];
  depends_on?: Record<string, { condition?: string }> | string[];
  deploy?: { replicas?: number };
  container_name?: string;
  restart?: string;
  stop_grace_period?: string;
  healthcheck?: { test?: string[] | string; disable?: boolean };
}

function environmentOf(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(env.map((e) => [e.split('=')[0]!, e.split('=').slice(1).join('=')]));
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}

/** Seconds of a compose duration (`150s`, `2m30s`, `1h`); compose's default grace period is 10 s. */
function durationSeconds(value: string | undefined): number {
  if (value === undefined) return 10;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6 };
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|m|s)/g)];
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit!]!, 0);
}

function containerPort(port: string | number | { target?: number }): number {
  if (typeof port === 'object') return Number(port.target);
  return Number(String(port).split(':').at(-1)!.split('/')[0]);
}

/** The compose services built from our Dockerfile (the others are third-party images). */
export function parseCompose(text: string): Record<string, ComposeService> {
  return (YAML.parse(text, { merge: true }) as { services: Record<string, ComposeService> }).services;
}

export function checkCompose(text: string, facts: RepoFacts, root = ROOT): string[] {
  const problems: string[] = [];
  const services = parseCompose(text);
  const ours = Object.entries(services).filter(([, s]) => s.build !== undefined);
  if (!services.migrate) problems.push('compose: no migrate service');
  for (const [name, service] of Object.entries(services).filter(([, s]) => s.build === undefined)) {
    for (const port of service.ports ?? []) {
      if (typeof port === 'object' || !String(port).startsWith('127.0.0.1:')) {
        problems.push(`compose ${name}: publishes ${JSON.stringify(port)} on every interface, not on 127.0.0.1 only`);
      }
    }
  }
  for (const [name, service] of ours) {
    const dockerfile = typeof service.build === 'string' ? 'Dockerfile' : (service.build?.dockerfile ?? 'Dockerfile');
    if (!fs.existsSync(path.join(root, dockerfile))) problems.push(`compose ${name}: ${dockerfile} does not exist`);
    const command = typeof service.command === 'string' ? service.command.split(/\s+/) : service.command;
    problems.push(...checkNodeCommand(`compose ${name} command`, command, facts, root));
    const env = environmentOf(service);
    for (const key of Object.keys(env)) {
      if (!facts.envNames.has(key) && !NODE_VARIABLES.includes(key)) {
        problems.push(`compose ${name}: ${key} is not in the config schema (packages/config/src/env.ts)`);
      }
    }
    if (service.deploy?.replicas !== undefined)
      problems.push(`compose ${name}: deploy.replicas conflicts with --scale`);
    if (service.container_name) problems.push(`compose ${name}: container_name prevents --scale`);
    const listens = name === 'gateway' ? Number(env.PORT ?? facts.defaultPort) : Number(env.HEALTH_PORT);
    if (name !== 'migrate' && !Number.isInteger(listens)) {
      problems.push(`compose ${name}: no HEALTH_PORT, so the image's health check has no port to ask`);
    }
    for (const port of service.ports ?? []) {
      if (name === 'converter') problems.push('compose converter: publishes a host port, so it cannot be scaled');
      else if (containerPort(port) !== listens)
        problems.push(`compose ${name}: port ${String(port)} is not the one it listens on (${listens})`);
    }
    const test = service.healthcheck?.test;
    if (test && !service.healthcheck?.disable) {
      const words = Array.isArray(test) ? test.filter((w) => w !== 'CMD' && w !== 'CMD-SHELL') : test.split(/\s+/);
      problems.push(...checkNodeCommand(`compose ${name} healthcheck`, words, facts, root));
    }
    const dependsOn = service.depends_on ?? {};
    for (const dep of Array.isArray(dependsOn) ? dependsOn : Object.keys(dependsOn)) {
      if (!services[dep]) problems.push(`compose ${name}: depends on ${dep}, which is not a service`);
    }
    // The infrastructure a service's URLs name (by compose service name) must be healthy before it starts.
    const needs = name === 'migrate' ? ['DATABASE_URL'] : ['AMQP_URL', 'REDIS_URL'];
    for (const variable of needs) {
      const host = env[variable] ? URL.parse(env[variable])?.hostname : undefined;
      if (!host || !services[host]) continue;
      const condition = Array.isArray(dependsOn) ? undefined : dependsOn[host]?.condition;
      if (condition !== 'service_healthy')
        problems.push(`compose ${name}: does not wait for ${host} (${variable}) to be healthy`);
    }
    if (name !== 'migrate' && durationSeconds(service.stop_grace_period) <= facts.longestWorkMs / 1000) {
      problems.push(
        `compose ${name}: stop_grace_period ${service.stop_grace_period ?? '10s (default)'} is not longer than its longest work (${facts.longestWorkMs / 1000} s)`,
      );
    }
    if (name !== 'migrate') {
      const onMigrate = Array.isArray(dependsOn) ? undefined : dependsOn.migrate?.condition;
      if (onMigrate !== 'service_completed_successfully') {
        problems.push(`compose ${name}: does not wait for the migrate one-shot to complete`);
      }
    }
  }
  const migrate = services.migrate;
  if (migrate) {
    const command = Array.isArray(migrate.command) ? migrate.command : [];
    if (!command.some((w) => /migrate/.test(w))) problems.push('compose migrate: does not run the migrations');
    if (migrate.restart && migrate.restart !== 'no') problems.push('compose migrate: a one-shot must not restart');
  }
  for (const required of ['gateway', 'converter', 'dispatcher']) {
    if (!services[required]) problems.push(`compose: no ${required} service`);
  }
  return problems;
}
