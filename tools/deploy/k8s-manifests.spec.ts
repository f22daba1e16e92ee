import 'reflect-metadata';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { getMetadataStorage } from 'class-validator';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { parseAllDocuments } from 'yaml';
import { SERVICE_NODE_FLAGS } from '../common/service-runtime';

/**
 * docker/k8s: every object is valid against the Kubernetes schemas (kubernetes-models, in
 * validate-manifests.mjs), and what the apps rely on holds: probes on paths the app serves at its
 * port, Secret references that resolve, only variables the app reads and a configuration it
 * accepts, Services, autoscalers and disruption budgets that select the pods they are meant for,
 * and a daily feed sync (CronJob tcg-feeds) that an operator can leave to run on its own.
 * The apps are read from their build in dist/ (tools may not import app code; `npm test` builds first).
 */
const ROOT = resolve(__dirname, '../..');
const K8S = join(ROOT, 'docker/k8s');
const APPS = ['api-gateway', 'api-v1', 'api-v2'] as const;
type App = (typeof APPS)[number];

type Labels = Record<string, string>;
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Probe {
  httpGet?: { path: string; port: number | string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { secretRef?: { name: string }; configMapRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodTemplate {
  metadata: { labels: Labels };
  spec: {
    containers: Container[];
    automountServiceAccountToken?: boolean;
    restartPolicy?: string;
    securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number; fsGroup?: number };
    volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[];
  };
}
interface JobSpec {
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  template: PodTemplate;
}
interface CronJobSpec {
  schedule: string;
  timeZone?: string;
  suspend?: boolean;
  concurrencyPolicy?: string;
  startingDeadlineSeconds?: number;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  jobTemplate: { spec: JobSpec };
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Labels };
  spec?: {
    replicas?: number;
    selector?: Labels | { matchLabels: Labels };
    template?: PodTemplate;
    ports?: { port: number; targetPort: number | string }[];
    scaleTargetRef?: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    metrics?: { type: string; resource?: { name: string; target: { type: string } } }[];
    maxUnavailable?: number | string;
    minAvailable?: number | string;
    accessModes?: string[];
    resources?: { requests?: Record<string, string> };
  };
  stringData?: Record<string, string>;
  data?: Record<string, string>;
}

const yamlFiles = readdirSync(K8S, { recursive: true, encoding: 'utf8' }).filter((file) =>
  /\.ya?ml$/.test(file),
);

function parseFile(file: string): unknown[] {
  return parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`docker/k8s/${file}: ${doc.errors[0]!.message}`);
    return doc.toJS() as unknown;
  });
}

const kustomization = parseFile('kustomization.yaml')[0] as {
  resources: string[];
  images?: { name: string }[];
};
const objects = kustomization.resources.flatMap((file) => parseFile(file) as K8sObject[]);
const named = (kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);

const [secret, ...otherSecrets] = ofKind('Secret');
const secretValues: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(secret?.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
  ),
  ...secret?.stringData,
};
/** The Secret as an operator fills it in: every placeholder replaced. */
const filledSecret = Object.fromEntries(
  Object.entries(secretValues).map(([k, v]) => [k, v.replaceAll('REPLACE_ME', 'filled-in-by-the-operator')]),
);

const template = (name: string) => named('Deployment', name)!.spec!.template!;
const cronJobs = () => ofKind('CronJob').map((o) => o as unknown as { spec: CronJobSpec });
/** Every pod template: the Deployments', the Jobs' and the CronJobs' (their jobTemplate's). */
const podTemplates = (): PodTemplate[] => [
  ...[...ofKind('Deployment'), ...ofKind('Job')].map((o) => o.spec!.template!),
  ...cronJobs().map((c) => c.spec.jobTemplate.spec.template),
];
const container = (name: string) => template(name).spec.containers[0]!;
const portOf = (c: Container, port: number | string) =>
  typeof port === 'number' ? port : c.ports?.find((p) => p.name === port)?.containerPort;
const selects = (selector: Labels, labels: Labels) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

/** The environment a container gets, its Secret references resolved against `values`. */
function environmentOf(c: Container, values: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { name, value, valueFrom } of c.env ?? []) {
    const ref = valueFrom?.secretKeyRef;
    const resolved = value ?? (ref && values[ref.key]);
    if (resolved !== undefined) env[name] = resolved;
  }
  return env;
}

/** Loads a built file of an app (dist/apps/<app>/src/<file>). */
function built<T>(app: App, file: string): T {
  return require(join(ROOT, 'dist/apps', app, 'src', file)) as T;
}

/** api-v1's worker (dist/apps/api-v1/src/worker.js): its configuration, as the app's above. */
const workerConfig = () =>
  built<{
    WorkerEnvironment: new () => object;
    validateWorkerEnvironment(raw: Record<string, string>): Record<string, unknown>;
  }>('api-v1', 'config/worker-environment.js');

/** The app's own check of its configuration, which refuses to boot on what it throws for. */
function validateEnvironmentOf(app: App): (raw: Record<string, string>) => object {
  return built<{ validateEnvironment(raw: Record<string, string>): object }>(app, 'config/environment.js')
    .validateEnvironment;
}

/** The variables an app's configuration class declares (its validation decorators, inherited ones included). */
function declaredVariables(app: App): string[] {
  const { Environment } = built<{ Environment: new () => object }>(app, 'config/environment.js');
  return getMetadataStorage()
    .getTargetValidationMetadatas(Environment, '', true, false)
    .map((m) => m.propertyName);
}

/** A controller's or handler's paths: Nest takes one path or several (`@Get(['', 'ready'])`). */
const pathsOf = (target: object): string[] => [Reflect.getMetadata(PATH_METADATA, target) ?? ''].flat();

interface DynamicModule {
  module: object;
  imports?: unknown[];
  controllers?: object[];
}

/**
 * The GET routes of an app's built Nest modules: every controller of every module its AppModule
 * imports (loading it reads no configuration: the app reads its environment when it is created).
 */
async function getRoutes(app: App): Promise<Set<string>> {
  const routes = new Set<string>();
  const seen = new Set<unknown>();
  const visit = async (entry: unknown): Promise<void> => {
    let found = await entry;
    if (found && typeof found === 'object' && 'forwardRef' in found)
      found = (found.forwardRef as () => unknown)();
    if (!found || seen.has(found)) return;
    seen.add(found);
    const dynamic = typeof found === 'object' ? (found as DynamicModule) : undefined;
    const module = dynamic?.module ?? (found as object);
    const controllers: object[] = [
      ...((Reflect.getMetadata('controllers', module) as object[] | undefined) ?? []),
      ...(dynamic?.controllers ?? []),
    ];
    for (const controller of controllers) {
      const prototype = (controller as { prototype: Record<string, unknown> }).prototype;
      for (const key of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[key] as object;
        if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) continue;
        for (const base of pathsOf(controller))
          for (const path of pathsOf(handler))
            routes.add(`/${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1'));
      }
    }
    const imports = [
      ...((Reflect.getMetadata('imports', module) as unknown[] | undefined) ?? []),
      ...(dynamic?.imports ?? []),
    ];
    for (const imported of imports) await visit(imported);
  };
  await visit(built<{ AppModule: unknown }>(app, 'app.module.js').AppModule);
  return routes;
}

/** kubernetes-models' verdict on each object, from a Node process of its own. */
function validate(list: unknown[]): { valid: boolean; error?: string }[] {
  const out = execFileSync(process.execPath, [join(__dirname, 'validate-manifests.mjs')], {
    input: JSON.stringify(list),
    encoding: 'utf8',
  });
  return JSON.parse(out) as { valid: boolean; error?: string }[];
}

interface PolicyPeer {
  namespaceSelector?: { matchLabels?: Labels };
  podSelector?: { matchLabels?: Labels };
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyPort {
  protocol?: string;
  port?: number | string;
}
interface NetworkPolicy {
  metadata: { name: string };
  spec: {
    podSelector: { matchLabels?: Labels };
    policyTypes: string[];
    ingress?: { from?: PolicyPeer[]; ports?: { protocol?: string; port: number | string }[] }[];
    egress?: { to?: PolicyPeer[]; ports?: PolicyPort[] }[];
  };
}
const policies = () => ofKind('NetworkPolicy') as unknown as NetworkPolicy[];

/** Who a policy's peer is, as docs/deploying.md names them: the gateway's pods, Prometheus, the ingress controller. */
function peerName(peer: PolicyPeer): string {
  const pods = peer.podSelector?.matchLabels;
  if (peer.namespaceSelector && pods?.['app.kubernetes.io/name'] === 'prometheus') return 'prometheus';
  if (peer.namespaceSelector && !peer.podSelector) return 'ingress controller';
  const apps = APPS.filter(
    (a) => !peer.namespaceSelector && pods && selects(pods, template(a).metadata.labels),
  );
  return apps.length === 1 ? apps[0]! : JSON.stringify(peer);
}

/** Every (port, peer) a set of NetworkPolicies opens to an app's pods; a named port resolved in its container. */
function openings(app: string, list: NetworkPolicy[]): { port: number | undefined; from: string }[] {
  return list
    .filter((p) => selects(p.spec.podSelector.matchLabels ?? {}, template(app).metadata.labels))
    .flatMap((p) => p.spec.ingress ?? [])
    .flatMap((rule) =>
      (rule.ports ?? []).flatMap((port) =>
        (rule.from ?? []).map((peer) => ({
          port: portOf(container(app), port.port),
          protocol: port.protocol ?? 'TCP',
          from: peerName(peer),
        })),
      ),
    )
    .map(({ protocol, ...opening }) => (protocol === 'TCP' ? opening : { ...opening, from: protocol }));
}

/**
 * Every connection the NetworkPolicies let pods with these labels open, as `PROTOCOL port to`
 * (`any` port or destination where a rule leaves it open), sorted; undefined when no policy
 * restricts their egress (then everything is allowed).
 */
function egressOpenings(labels: Labels, list: NetworkPolicy[]): string[] | undefined {
  const selecting = list.filter(
    (p) => p.spec.policyTypes.includes('Egress') && selects(p.spec.podSelector.matchLabels ?? {}, labels),
  );
  if (selecting.length === 0) return undefined;
  const openings = selecting
    .flatMap((p) => p.spec.egress ?? [])
    .flatMap((rule) =>
      // An empty or missing list matches every port, or every destination.
      (rule.ports?.length ? rule.ports : [{}]).flatMap((port) =>
        (rule.to?.length ? rule.to : [undefined]).map(
          (peer) =>
            `${port.protocol ?? 'TCP'} ${port.port ?? 'any'} ${peer === undefined ? 'any' : JSON.stringify(peer)}`,
        ),
      ),
    );
  return [...new Set(openings)].sort();
}

/** Whether `ip` (in an ipBlock's CIDR and outside its exceptions) is a peer of this rule. */
function inBlock(ip: string, peer: PolicyPeer | undefined): boolean {
  if (peer === undefined) return true;
  const block = peer.ipBlock;
  if (!block) return false; // a pod or namespace selector: no address outside the cluster
  const address = ipaddr.parse(ip);
  const within = (cidr: string) => {
    const [range, bits] = ipaddr.parseCIDR(cidr);
    return range.kind() === address.kind() && address.match(range, bits);
  };
  return within(block.cidr) && !(block.except ?? []).some(within);
}

/** Whether the NetworkPolicies let pods with these labels open a connection to `ip`:`port`. */
function egressAllows(
  labels: Labels,
  list: NetworkPolicy[],
  ip: string,
  port: number,
  protocol: string,
): boolean {
  const selecting = list.filter(
    (p) => p.spec.policyTypes.includes('Egress') && selects(p.spec.podSelector.matchLabels ?? {}, labels),
  );
  if (selecting.length === 0) return true;
  return selecting
    .flatMap((p) => p.spec.egress ?? [])
    .some(
      (rule) =>
        (!rule.ports?.length ||
          rule.ports.some(
            (p) => (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === port),
          )) &&
        (!rule.to?.length ? true : rule.to.some((peer) => inBlock(ip, peer))),
    );
}

/** A resource quantity (`250m`, `320Mi`, `1`) as a number of units. */
function quantity(q: string): number {
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|k|M|G)?$/.exec(q);
  if (!match) throw new Error(`unknown quantity ${q}`);
  const scale = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 };
  return Number(match[1]) * (match[2] ? scale[match[2] as keyof typeof scale] : 1);
}

describe('docker/k8s', () => {
  it('lists every manifest of the folder in kustomization.yaml, and nothing else', () => {
    expect([...kustomization.resources].sort()).toEqual(
      yamlFiles.filter((file) => file !== 'kustomization.yaml').sort(),
    );
  });

  it('holds objects that are valid against the Kubernetes schemas (kubernetes-models)', () => {
    const verdicts = validate(objects);
    const refused = objects
      .map((o, i) => ({ object: `${o.kind} ${o.metadata.name}`, ...verdicts[i] }))
      .filter((v) => !v.valid);
    expect(refused).toEqual([]);
    expect(verdicts).toHaveLength(objects.length);
  });

  it('uses a validator that refuses an invalid object, saying where', () => {
    const broken = structuredClone(named('Deployment', 'api-gateway')!);
    broken.spec!.template!.spec.containers[0]!.ports![0]!.containerPort = 'http' as unknown as number;
    expect(validate([broken])).toEqual([
      {
        valid: false,
        error: expect.stringMatching(/containers\/0\/ports\/0\/containerPort must be integer/),
      },
    ]);
  });

  it('runs the image kustomization.yaml names, built from docker/Dockerfile', () => {
    expect(cronJobs()).not.toHaveLength(0);
    const images = new Set(podTemplates().flatMap((t) => t.spec.containers.map((c) => c.image)));
    expect([...images]).toEqual(kustomization.images!.map((i) => i.name));
  });

  it('has one Secret, of placeholders only, which unfilled stops every app at boot', () => {
    expect(secret).toBeDefined();
    expect(otherSecrets).toEqual([]);
    for (const value of Object.values(secretValues)) expect(value).toContain('REPLACE_ME');
    for (const app of APPS) {
      expect(() => validateEnvironmentOf(app)(environmentOf(container(app), secretValues))).toThrow(
        /INTERNAL_TOKEN/,
      );
    }
  });

  it('refers only to the Secret and keys it has', () => {
    const containers = podTemplates().flatMap((t) => t.spec.containers);
    const refs = containers.flatMap((c) => (c.env ?? []).flatMap((e) => e.valueFrom?.secretKeyRef ?? []));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs)
      expect({ name: ref.name, key: ref.key in secretValues }).toEqual({
        name: secret!.metadata.name,
        key: true,
      });
    for (const from of containers.flatMap((c) => c.envFrom ?? [])) {
      expect(from.configMapRef).toBeUndefined();
      expect(from.secretRef?.name).toBe(secret!.metadata.name);
    }
  });

  it('runs every pod as a numeric non-root user, read-only, without capabilities or a service account token', () => {
    for (const { spec: pod } of podTemplates()) {
      expect(pod.automountServiceAccountToken).toBe(false);
      // Numeric: the image's USER is a name (`node`), which the kubelet cannot check against runAsNonRoot.
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number) });
      expect(pod.securityContext!.runAsUser).toBeGreaterThan(0);
      for (const c of pod.containers)
        expect(c.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
    }
  });

  it('migrates with the built migration tool and DATABASE_URL from the Secret', () => {
    const [job] = ofKind('Job');
    const c = job!.spec!.template!.spec.containers[0]!;
    expect(c.command).toEqual(['node', 'dist/tools/migrate/migrate.js']);
    expect(existsSync(join(ROOT, c.command![1]!))).toBe(true);
    expect(c.env).toEqual([
      {
        name: 'DATABASE_URL',
        valueFrom: { secretKeyRef: { name: secret!.metadata.name, key: 'DATABASE_URL' } },
      },
    ]);
  });

  it('connects each app as its own PostgreSQL role, never as the owner the migrations use', () => {
    const databaseKey = (c: Container) =>
      c.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.key;
    expect(Object.fromEntries(APPS.map((app) => [app, databaseKey(container(app))]))).toEqual({
      'api-gateway': 'GATEWAY_DATABASE_URL',
      // api-v1's own login role (tcg_api_v1): the catalogue as a reader, and the alerts, whose
      // webhook secrets api-v2 and the replicas' role cannot read.
      'api-v1': 'API_V1_DATABASE_URL',
      'api-v2': 'SERVICES_DATABASE_URL',
    });
    expect(databaseKey(ofKind('Job')[0]!.spec!.template!.spec.containers[0]!)).toBe('DATABASE_URL');
  });

  it('gives the gateway the Services of api-v1 and api-v2, at their API ports', () => {
    const env = environmentOf(container('api-gateway'), filledSecret);
    for (const [variable, app] of [
      ['API_V1_URL', 'api-v1'],
      ['API_V2_URL', 'api-v2'],
    ] as const) {
      const url = new URL(env[variable]!);
      const port = named('Service', url.hostname)?.spec!.ports!.find((p) => p.port === Number(url.port));
      expect({ service: url.hostname, targetPort: port && portOf(container(app), port.targetPort) }).toEqual({
        service: app,
        targetPort: Number(environmentOf(container(app), filledSecret)['PORT']),
      });
    }
  });

  it("refuses by default every connection to the project's pods (a policy selecting them all, allowing nothing)", () => {
    const denying = policies().filter((p) => p.spec.policyTypes.includes('Ingress') && !p.spec.ingress);
    expect(denying).toHaveLength(1);
    for (const { metadata } of podTemplates())
      expect(selects(denying[0]!.spec.podSelector.matchLabels ?? {}, metadata.labels)).toBe(true);
  });

  /** What each app must be reachable on, from the ports the built app is configured with. */
  const expectedOpenings = (app: App) => {
    const env = validateEnvironmentOf(app)(environmentOf(container(app), filledSecret)) as {
      PORT: number;
      METRICS_PORT: number;
    };
    return [
      { port: env.PORT, from: app === 'api-gateway' ? 'ingress controller' : 'api-gateway' },
      { port: env.METRICS_PORT, from: 'prometheus' },
    ];
  };

  it('notices a NetworkPolicy that opens a port the app does not serve', () => {
    const broken = structuredClone(policies());
    const v1 = broken.find((p) => p.metadata.name === 'api-v1')!;
    v1.spec.ingress![0]!.ports![0]!.port = 8080;
    expect(openings('api-v1', broken)).not.toEqual(expectedOpenings('api-v1'));
    expect(openings('api-v1', broken)).toContainEqual({ port: 8080, from: 'api-gateway' });
  });

  describe('the daily feed sync (CronJob tcg-feeds)', () => {
    const FEEDS_MAIN = 'dist/tools/feeds/feeds.js';
    const cron = () =>
      cronJobs().find(
        (c) => c.spec.jobTemplate.spec.template.metadata.labels['app.kubernetes.io/name'] === 'tcg-feeds',
      )!;
    const job = () => cron().spec.jobTemplate.spec;
    const pod = () => job().template.spec;
    const c = () => pod().containers[0]!;
    /** The value of a `--flag value` argument of the sync's command. */
    const argument = (flag: string) => c().command![c().command!.indexOf(flag) + 1];
    const mountAt = (path: string) => c().volumeMounts?.find((m) => m.mountPath === path);
    const volume = (name: string | undefined) => pod().volumes?.find((v) => v.name === name);

    it('is the one CronJob, with one container', () => {
      expect(cronJobs()).toHaveLength(1);
      expect(cron()).toBeDefined();
      expect(pod().containers).toHaveLength(1);
    });

    it('runs the built sync on both feeds, into a cache directory', () => {
      expect(c().command).toEqual([
        'node',
        FEEDS_MAIN,
        'sync',
        '--feeds',
        'mtgjson,scryfall',
        '--dir',
        '/var/lib/tcg-feeds',
      ]);
    });

    // The command is not built until tools/feeds has it (issue 23): checked from then on, so that
    // the manifest and the build agree on the file's name.
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const syncLanded = existsSync(join(ROOT, 'tools/feeds/feeds.ts')) || 'feeds' in scripts;
    (syncLanded ? it : it.skip)(
      `runs the file the build makes and \`npm run feeds\` runs (${FEEDS_MAIN}), which accepts its arguments`,
      () => {
        expect(existsSync(join(ROOT, FEEDS_MAIN))).toBe(true);
        if (scripts['feeds'] !== undefined) expect(scripts['feeds']).toContain(`node ${FEEDS_MAIN}`);
        // Its very arguments, the cache in a scratch folder, against a database that refuses at
        // once: a tool that accepts them gets as far as connecting (its failure logged, exit 2);
        // one that does not prints its usage instead.
        const scratch = mkdtempSync(join(tmpdir(), 'tcg-feeds-'));
        try {
          const args = c()
            .command!.slice(1)
            .map((a) => (a === argument('--dir') ? scratch : a));
          const run = spawnSync(process.execPath, args, {
            cwd: ROOT,
            env: { ...process.env, DATABASE_URL: 'postgres://nobody:none@127.0.0.1:1/none' },
            encoding: 'utf8',
            timeout: 30_000,
          });
          expect(run.stderr).not.toContain('usage:');
          expect(run.stderr).toContain('"msg":"feeds failed"');
          expect(run.status).toBe(2);
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
      },
    );

    it('keeps its cache on the PersistentVolumeClaim, writable by its non-root user', () => {
      const cache = mountAt(argument('--dir')!);
      expect(cache).toBeDefined();
      expect(cache!.readOnly).toBeFalsy();
      const claimName = volume(cache!.name)?.persistentVolumeClaim?.claimName;
      const claim = claimName === undefined ? undefined : named('PersistentVolumeClaim', claimName);
      expect(claim).toBeDefined();
      expect(claim!.spec!.accessModes).toContain('ReadWriteOnce');
      expect(quantity(claim!.spec!.resources!.requests!['storage']!)).toBeGreaterThanOrEqual(5 * 2 ** 30);
      // A new volume is root's on most provisioners: the pod's group must own it to write there.
      expect(pod().securityContext!.fsGroup).toBe(pod().securityContext!.runAsGroup);
      expect(pod().securityContext!.fsGroup).toBeGreaterThan(0);
    });

    it('runs daily at a fixed time in UTC, never two runs at once, and not suspended', () => {
      const [minute, hour, ...rest] = cron().spec.schedule.split(' ');
      expect(rest).toEqual(['*', '*', '*']);
      expect(Number(minute)).toBeGreaterThanOrEqual(0);
      expect(Number(minute)).toBeLessThan(60);
      expect(Number(hour)).toBeGreaterThanOrEqual(0);
      expect(Number(hour)).toBeLessThan(24);
      expect(cron().spec.timeZone).toBe('Etc/UTC');
      expect(cron().spec.concurrencyPolicy).toBe('Forbid');
      expect(cron().spec.suspend).toBeFalsy();
    });

    it('gives a run more than the hour it takes, and ends a late one before the next is due', () => {
      const { startingDeadlineSeconds: late } = cron().spec;
      const { activeDeadlineSeconds: active } = job();
      // Under 10 s the controller, which looks every 10 s, may never start it.
      expect(late).toBeGreaterThanOrEqual(10);
      expect(active).toBeGreaterThan(3600);
      expect(late! + active!).toBeLessThan(24 * 3600);
    });

    it('retries a failed run a few times, each in a new pod, and keeps failed runs for their logs', () => {
      expect(job().backoffLimit).toBeGreaterThanOrEqual(1);
      expect(job().backoffLimit).toBeLessThanOrEqual(5);
      expect(pod().restartPolicy).toBe('Never');
      expect(cron().spec.failedJobsHistoryLimit).toBeGreaterThanOrEqual(1);
      expect(cron().spec.successfulJobsHistoryLimit).toBeGreaterThanOrEqual(1);
    });

    it("connects as the importer's login role from the Secret, never unset, and sets only variables the sync reads", () => {
      const ref = (x: Container) => x.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
      expect(ref(c())).toMatchObject({ name: secret!.metadata.name, key: 'IMPORTER_DATABASE_URL' });
      expect(new URL(filledSecret['IMPORTER_DATABASE_URL']!).username).toBe('tcg_import');
      expect(ref(c())!.optional).toBeFalsy();
      const readable = ['DATABASE_URL', 'MTGJSON_BASE_URL', 'SCRYFALL_BULK_URL', 'FEEDS_DIR'];
      expect((c().env ?? []).map((e) => e.name).filter((name) => !readable.includes(name))).toEqual([]);
      expect(c().envFrom).toBeUndefined();
    });

    it('requests the memory a run needs (1 GiB), no more than its limits, memory limited', () => {
      const { requests = {}, limits = {} } = c().resources ?? {};
      expect(quantity(requests['memory'] ?? '0')).toBeGreaterThanOrEqual(2 ** 30);
      expect(limits['memory']).toBeDefined();
      for (const [resource, limit] of Object.entries(limits))
        expect(quantity(requests[resource] ?? '0')).toBeLessThanOrEqual(quantity(limit));
    });

    it("may open only DNS, PostgreSQL (the Secret's port) and HTTPS, and no policy admits a connection to it", () => {
      const postgres = new URL(filledSecret['DATABASE_URL']!).port || '5432';
      expect(egressOpenings(job().template.metadata.labels, policies())).toEqual(
        ['TCP 443 any', 'TCP 53 any', `TCP ${postgres} any`, 'UDP 53 any'].sort(),
      );
      const admitting = policies().filter(
        (p) =>
          (p.spec.ingress ?? []).length > 0 &&
          selects(p.spec.podSelector.matchLabels ?? {}, job().template.metadata.labels),
      );
      expect(admitting).toEqual([]);
    });

    it('is what docker/compose.yaml runs too, once and only when asked, with its cache on a named volume', () => {
      interface ComposeService {
        profiles?: string[];
        command?: string[];
        environment?: Record<string, string | null>;
        volumes?: string[];
        depends_on?: Record<string, { condition: string }>;
      }
      const compose = parseAllDocuments(
        readFileSync(join(ROOT, 'docker/compose.yaml'), 'utf8'),
      )[0]!.toJS() as {
        services: Record<string, ComposeService>;
        volumes?: Record<string, unknown>;
      };
      const { feeds } = compose.services;
      expect(feeds?.command).toEqual(c().command);
      // In a profile: `up` leaves it alone, `docker compose run --rm feeds` runs it.
      expect(feeds!.profiles).toEqual(['feeds']);
      expect(new URL(feeds!.environment!['DATABASE_URL']!).username).toBe('tcg_import');
      expect(feeds!.depends_on).toEqual({ roles: { condition: 'service_completed_successfully' } });
      const cache = feeds!
        .volumes!.map((v) => v.split(':'))
        .find(([, target]) => target === argument('--dir'));
      expect(cache).toBeDefined();
      expect(Object.keys(compose.volumes ?? {})).toContain(cache![0]);
    });

    it("leaves the gateway's and api-v2's egress open: its policy selects none of their pods", () => {
      for (const app of ['api-gateway', 'api-v2'] as const)
        expect(egressOpenings(template(app).metadata.labels, policies())).toBeUndefined();
    });

    it('notices an egress policy that drops HTTPS, or no longer selects its pods', () => {
      const labels = job().template.metadata.labels;
      const withoutHttps = structuredClone(policies());
      for (const p of withoutHttps)
        p.spec.egress &&= p.spec.egress.filter((rule) => !rule.ports?.some((port) => port.port === 443));
      expect(egressOpenings(labels, withoutHttps)).not.toContain('TCP 443 any');
      const unselected = structuredClone(policies());
      for (const p of unselected)
        if (p.spec.egress) p.spec.podSelector.matchLabels = { 'app.kubernetes.io/name': 'renamed' };
      expect(egressOpenings(labels, unselected)).toBeUndefined();
    });
  });

  describe.each(['api-v1', 'api-v1-worker'])(
    "%s's egress (webhooks to addresses subscribers name)",
    (app) => {
      const labels = () => template(app).metadata.labels;
      const postgres = () => new URL(filledSecret['API_V1_DATABASE_URL']!).port || '5432';
      const can = (ip: string, port: number, protocol = 'TCP') =>
        egressAllows(labels(), policies(), ip, port, protocol);

      it('may resolve names and reach PostgreSQL wherever they are, and nothing else but HTTPS', () => {
        const openings = egressOpenings(labels(), policies())!;
        expect(openings).toBeDefined();
        expect(new Set(openings.map((o) => o.split(' ').slice(0, 2).join(' ')))).toEqual(
          new Set(['TCP 443', 'TCP 53', 'UDP 53', `TCP ${postgres()}`]),
        );
        expect(can('10.96.0.10', 53, 'UDP')).toBe(true);
        expect(can('10.1.2.3', Number(postgres()))).toBe(true);
        for (const port of [80, 6379, 8443, 9080])
          expect({ port, allowed: can('93.184.216.34', port) }).toEqual({ port, allowed: false });
      });

      it.each([
        ['93.184.216.34', true],
        ['2606:4700::6810:84e5', true],
        ['169.254.169.254', false], // cloud metadata
        ['169.254.170.2', false], // ECS task metadata
        ['10.0.0.1', false],
        ['172.16.5.4', false],
        ['192.168.1.1', false],
        ['100.64.0.1', false],
        ['127.0.0.1', false],
        ['0.0.0.0', false],
        ['fd00:ec2::254', false], // AWS metadata over IPv6
        ['fe80::1', false],
        ['::1', false],
      ])('HTTPS to %s: %s', (ip, allowed) => {
        expect(can(ip, 443)).toBe(allowed);
      });
    },
  );

  describe("api-v1's worker (Deployment api-v1-worker: the batch jobs, no API)", () => {
    const WORKER = 'api-v1-worker';
    const c = () => container(WORKER);
    const env = () => environmentOf(c(), filledSecret);

    it('runs the built worker with the flags of tools/common/service-runtime.ts', () => {
      const main = 'dist/apps/api-v1/src/worker.js';
      expect(c().command).toEqual(['node', ...SERVICE_NODE_FLAGS, '--enable-source-maps', main]);
      expect(existsSync(join(ROOT, main))).toBe(true);
    });

    it('runs both jobs, which the serving api-v1 has off', () => {
      const config = workerConfig().validateWorkerEnvironment(env());
      expect(config).toMatchObject({ BULK_GENERATION: 'on', ALERT_SENDER: 'on', METRICS_HOST: '0.0.0.0' });
      expect(validateEnvironmentOf('api-v1')(environmentOf(container('api-v1'), filledSecret))).toMatchObject(
        {
          BULK_GENERATION: 'off',
          ALERT_SENDER: 'off',
        },
      );
    });

    it("sets only variables it reads, with api-v1's role and webhook secret key", () => {
      const readable = new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(workerConfig().WorkerEnvironment, '', true, false)
          .map((m) => m.propertyName),
      );
      expect(Object.keys(env()).filter((name) => !readable.has(name))).toEqual([]);
      const ref = (x: Container, name: string) =>
        x.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef?.key;
      for (const name of ['DATABASE_URL', 'ALERT_SECRET_KEY'])
        expect({ name, key: ref(c(), name) }).toEqual({ name, key: ref(container('api-v1'), name) });
    });

    it('listens on its metrics port only, which its probes use (/metrics answers without I/O, /health checks PostgreSQL)', () => {
      const metricsPort = Number(workerConfig().validateWorkerEnvironment(env())['METRICS_PORT']);
      expect(c().ports).toEqual([{ name: 'metrics', containerPort: metricsPort }]);
      const probes = { startupProbe: '/metrics', livenessProbe: '/metrics', readinessProbe: '/health' };
      for (const [probe, path] of Object.entries(probes)) {
        const httpGet = c()[probe as keyof typeof probes]?.httpGet;
        expect({ probe, path: httpGet?.path }).toEqual({ probe, path });
        expect(portOf(c(), httpGet!.port)).toBe(metricsPort);
      }
      expect(openings(WORKER, policies())).toEqual([{ port: metricsPort, from: 'prometheus' }]);
    });

    it('runs 1 or 2 pods (the jobs share the work through PostgreSQL locks), no autoscaler, one disruption budget', () => {
      const replicas = named('Deployment', WORKER)!.spec!.replicas!;
      expect(replicas).toBeGreaterThanOrEqual(1);
      expect(replicas).toBeLessThanOrEqual(2);
      expect(
        ofKind('HorizontalPodAutoscaler').filter((h) => h.spec!.scaleTargetRef!.name === WORKER),
      ).toEqual([]);
      const budgets = ofKind('PodDisruptionBudget').filter((b) =>
        selects((b.spec!.selector as { matchLabels: Labels }).matchLabels, template(WORKER).metadata.labels),
      );
      expect(budgets).toHaveLength(1);
      for (const app of APPS)
        expect(selects(template(WORKER).metadata.labels, template(app).metadata.labels)).toBe(false);
    });

    it('is what docker/compose.yaml runs too, beside an api-v1 with both jobs off', () => {
      interface ComposeService {
        command?: string[];
        environment?: Record<string, string | null>;
      }
      const compose = parseAllDocuments(
        readFileSync(join(ROOT, 'docker/compose.yaml'), 'utf8'),
      )[0]!.toJS() as {
        services: Record<string, ComposeService>;
      };
      const worker = compose.services[WORKER]!;
      expect(worker.command).toEqual(c().command);
      expect(worker.environment).toMatchObject({ BULK_GENERATION: 'on', ALERT_SENDER: 'on' });
      expect(new URL(worker.environment!['DATABASE_URL']!).username).toBe(
        new URL(compose.services['api-v1']!.environment!['DATABASE_URL']!).username,
      );
      expect(compose.services['api-v1']!.environment).toMatchObject({
        BULK_GENERATION: 'off',
        ALERT_SENDER: 'off',
      });
    });
  });

  it.each([...APPS, 'api-v1-worker'])('%s requests no more than its limits, memory limited', (name) => {
    const { requests = {}, limits = {} } = container(name).resources ?? {};
    expect(limits['memory']).toBeDefined();
    for (const [resource, limit] of Object.entries(limits))
      expect(quantity(requests[resource] ?? '0')).toBeLessThanOrEqual(quantity(limit));
  });

  describe.each(APPS)('%s', (app) => {
    const c = () => container(app);
    const env = () => environmentOf(c(), filledSecret);

    it('is reachable by NetworkPolicy only on the ports it serves: its API port from its one client, metrics from Prometheus', () => {
      expect(openings(app, policies())).toEqual(expectedOpenings(app));
    });

    it('runs the built app with the flags of tools/common/service-runtime.ts', () => {
      const main = `dist/apps/${app}/src/main.js`;
      expect(c().command).toEqual(['node', ...SERVICE_NODE_FLAGS, '--enable-source-maps', main]);
      expect(existsSync(join(ROOT, main))).toBe(true);
    });

    it('sets only variables the app reads, in a configuration it accepts once the Secret is filled', () => {
      const readable = new Set(declaredVariables(app));
      expect(Object.keys(env()).filter((name) => !readable.has(name))).toEqual([]);
      expect(validateEnvironmentOf(app)(env())).toMatchObject({ HOST: '0.0.0.0', METRICS_HOST: '0.0.0.0' });
    });

    it('listens on its container ports: API (`http`) and metrics', () => {
      expect(portOf(c(), 'http')).toBe(Number(env()['PORT']));
      expect(portOf(c(), 'metrics')).toBe(Number(env()['METRICS_PORT']));
    });

    it('probes /health/live (start, liveness) and /health/ready (the services), routes the app serves, on its API port', async () => {
      const probes = {
        startupProbe: '/health/live',
        livenessProbe: '/health/live',
        // The gateway stays in its Service through a database or service outage: it answers
        // those with its own 503 and Retry-After, and admits keys it has seen (see the manifest).
        readinessProbe: app === 'api-gateway' ? '/health/live' : '/health/ready',
      };
      for (const [probe, path] of Object.entries(probes)) {
        const httpGet = c()[probe as keyof typeof probes]?.httpGet;
        expect({ probe, path: httpGet?.path }).toEqual({ probe, path });
        expect(portOf(c(), httpGet!.port)).toBe(Number(env()['PORT']));
      }
      const health = [...(await getRoutes(app))].filter((route) => route.startsWith('/health'));
      expect(health).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
    });

    it('is selected by its Service, which targets its container ports', () => {
      const service = named('Service', app)!;
      expect(Object.keys(service.spec!.selector as Labels)).not.toHaveLength(0);
      expect(selects(service.spec!.selector as Labels, template(app).metadata.labels)).toBe(true);
      for (const { targetPort } of service.spec!.ports!) expect(portOf(c(), targetPort)).toBeDefined();
    });

    it('is scaled on CPU by an autoscaler that keeps 2 pods, and owns no replicas field', () => {
      const hpas = ofKind('HorizontalPodAutoscaler').filter((h) => h.spec!.scaleTargetRef!.name === app);
      expect(hpas).toHaveLength(1);
      const hpa = hpas[0]!;
      expect(hpa.spec!.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
      expect(hpa.spec!.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec!.metrics).toContainEqual(
        expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }),
      );
      expect(named('Deployment', app)!.spec!.replicas).toBeUndefined();
    });

    it('has a disruption budget selecting its pods (and no other Deployment) that lets one go at a time', () => {
      const budgets = ofKind('PodDisruptionBudget').filter((b) =>
        selects((b.spec!.selector as { matchLabels: Labels }).matchLabels, template(app).metadata.labels),
      );
      expect(budgets).toHaveLength(1);
      const matchLabels = (budgets[0]!.spec!.selector as { matchLabels: Labels }).matchLabels;
      expect(Object.keys(matchLabels)).not.toHaveLength(0);
      const others = APPS.filter((a) => a !== app && selects(matchLabels, template(a).metadata.labels));
      expect(others).toEqual([]);
      expect(budgets[0]!.spec).toMatchObject({ maxUnavailable: 1 });
    });
  });
});
