import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { checkCompose, checkDockerfile, parseCompose, readRepoFacts, ROOT } from './deploy-checks';

const DOCKERFILE = fs.readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
const COMPOSE = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const facts = readRepoFacts();

/** The compose file with one service changed, as YAML again. */
function composeWith(change: (services: ReturnType<typeof parseCompose>) => void): string {
  const services = parseCompose(COMPOSE);
  change(services);
  return YAML.stringify({ services });
}

describe('deploy/Dockerfile', () => {
  it('When the Dockerfile is held against the code, then every command, file, port, variable and health check it names exists', () => {
    expect(checkDockerfile(DOCKERFILE, facts)).toEqual([]);
  });

  it('When the runtime stage is read, then its apt packages are runtime ones only and none is test-only', () => {
    expect(facts.runtimeAptPackages).toEqual(
      expect.arrayContaining(['poppler-utils', 'libmimalloc2.0', 'ffmpeg', 'pocketsphinx']),
    );
    for (const testOnly of ['flite', 'espeak-ng']) {
      expect(facts.testAptPackages).toContain(testOnly);
      expect(facts.runtimeAptPackages).not.toContain(testOnly);
    }
  });

  it('When the runtime stage installs flite, then the check names it as test-only', () => {
    const withFlite = DOCKERFILE.replace(/^USER /m, 'RUN apt-get install -y flite && apt-get clean\nUSER ');
    expect(checkDockerfile(withFlite, facts)).toEqual([
      'Dockerfile runtime stage: installs flite, a build or test-only package',
    ]);
  });

  it('When the runtime stage calls setup without --runtime-only, then the test packages it would install are named', () => {
    const full = DOCKERFILE.replace('setup-system.sh --runtime-only', 'setup-system.sh');
    expect(checkDockerfile(full, facts)).toEqual(
      facts.testAptPackages.map((p) => `Dockerfile runtime stage: installs ${p}, a build or test-only package`),
    );
  });

  it('When the Dockerfile starts with a # syntax= line, or the runtime stage installs apt packages without apt-get clean, then the check names both', () => {
    const broken = `# syntax=docker/dockerfile:1\n${DOCKERFILE.replace(/ && apt-get clean/, '')}`;
    expect(checkDockerfile(broken, facts)).toEqual([
      'Dockerfile: a # syntax= directive makes the builder pull its frontend image from Docker Hub',
      'Dockerfile runtime stage: installs apt packages without apt-get clean, so the .deb files stay in the image',
    ]);
  });

  it('When the runtime stage has no USER, then the check says it runs as root', () => {
    expect(checkDockerfile(DOCKERFILE.replace(/^USER .*$/m, ''), facts)).toEqual([
      'Dockerfile runtime stage: runs as root',
    ]);
  });

  it('When the health check script is not copied into the image, then the check says so', () => {
    const notCopied = DOCKERFILE.replace('cp -a --parents deploy/healthcheck.js /out/', 'true');
    expect(checkDockerfile(notCopied, facts)).toEqual([
      'Dockerfile: deploy/healthcheck.js (HEALTHCHECK) is not copied into the runtime image',
    ]);
  });

  it('When the image sets a variable the config schema lacks, then the check names it', () => {
    const withTypo = DOCKERFILE.replace('ENV NODE_ENV=production', 'ENV NODE_ENV=production\nENV AMQP_ADDRESS=x');
    expect(checkDockerfile(withTypo, facts)).toEqual([
      'Dockerfile stage runtime: ENV AMQP_ADDRESS is not in the config schema (packages/config/src/env.ts)',
    ]);
  });

  it('When the health check or the command runs a file no build produces, then the check names it', () => {
    const broken = DOCKERFILE.replace(
      'CMD ["node", "deploy/healthcheck.js"]',
      'CMD ["node", "deploy/health.js"]',
    ).replace('services/gateway/dist/main.js', 'services/gateway/dist/server.js');
    expect(checkDockerfile(broken, facts)).toEqual([
      'Dockerfile HEALTHCHECK: deploy/health.js is neither a build output (buildEntries) nor a file of the repo',
      'Dockerfile: deploy/health.js (HEALTHCHECK) is not copied into the runtime image',
      'Dockerfile CMD: services/gateway/dist/server.js is neither a build output (buildEntries) nor a file of the repo',
    ]);
  });
});

describe('docker-compose.yml', () => {
  it('When the compose file is held against the code, then every command, variable, port and dependency exists and converters can scale', () => {
    expect(checkCompose(COMPOSE, facts)).toEqual([]);
  });

  it('When a service is given a variable the config schema lacks, then the check names it', () => {
    const compose = composeWith((s) => {
      s.converter!.environment = { ...(s.converter!.environment as Record<string, string>), CONVERTER_THREADS: '4' };
    });
    expect(checkCompose(compose, facts)).toEqual([
      'compose converter: CONVERTER_THREADS is not in the config schema (packages/config/src/env.ts)',
    ]);
  });

  it('When converters publish a host port or fix their replicas, then the check says --scale would break', () => {
    const compose = composeWith((s) => {
      s.converter!.ports = ['8081:8081'];
      s.converter!.deploy = { replicas: 2 };
    });
    expect(checkCompose(compose, facts)).toEqual([
      'compose converter: deploy.replicas conflicts with --scale',
      'compose converter: publishes a host port, so it cannot be scaled',
    ]);
  });

  it('When a service runs a file no build produces or skips the migrations, then the check names both', () => {
    const compose = composeWith((s) => {
      s.dispatcher!.command = ['node', 'services/dispatcher/src/entry-points/main.js'];
      s.dispatcher!.depends_on = {
        rabbitmq: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      };
    });
    expect(checkCompose(compose, facts)).toEqual([
      'compose dispatcher command: services/dispatcher/src/entry-points/main.js is neither a build output (buildEntries) nor a file of the repo',
      'compose dispatcher: does not wait for the migrate one-shot to complete',
    ]);
  });
});

describe('docker-compose.yml: start order, exposure and shutdown', () => {
  it('When the services do not wait for Redis, then the check names each one that reads REDIS_URL', () => {
    const compose = composeWith((s) => {
      for (const name of ['gateway', 'converter', 'dispatcher']) {
        delete (s[name]!.depends_on as Record<string, unknown>).redis;
      }
    });
    expect(checkCompose(compose, facts)).toEqual(
      ['gateway', 'converter', 'dispatcher'].map(
        (n) => `compose ${n}: does not wait for redis (REDIS_URL) to be healthy`,
      ),
    );
  });

  it('When PostgreSQL, RabbitMQ or Redis is published on every interface, then the check names the port', () => {
    const compose = composeWith((s) => {
      s.postgres!.ports = ['5432:5432'];
      s.redis!.ports = ['0.0.0.0:6379:6379'];
    });
    expect(checkCompose(compose, facts)).toEqual([
      'compose postgres: publishes "5432:5432" on every interface, not on 127.0.0.1 only',
      'compose redis: publishes "0.0.0.0:6379:6379" on every interface, not on 127.0.0.1 only',
    ]);
  });

  it('When a service would be killed before a conversion or a sync request can finish, then the check names its grace period', () => {
    const compose = composeWith((s) => {
      delete s.converter!.stop_grace_period;
      s.gateway!.stop_grace_period = '1m50s';
    });
    expect(checkCompose(compose, facts)).toEqual([
      'compose gateway: stop_grace_period 1m50s is not longer than its longest work (120 s)',
      'compose converter: stop_grace_period 10s (default) is not longer than its longest work (120 s)',
    ]);
  });
});

describe('production dependencies', () => {
  it('When the workspace manifests are read, then no build or test tool is a production dependency', () => {
    expect(facts.prodDependencyProblems).toEqual([]);
  });
});
