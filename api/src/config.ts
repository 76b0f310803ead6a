/**
 * The API's configuration, read once from the environment and validated at start: a bad value
 * stops the process with a message naming the variable, instead of failing on first use.
 * Defaults suit local development; production must say what it means (see `required`).
 */
import { isKnownLocale } from '@mailroom/api-client/fields';
import { DEFAULT_EMAIL_EDITOR_SCRIPT_URL } from '@mailroom/mf-contract';
import { REMOTES_PORT_BASE } from '@mailroom/mf-contract/remotes';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRoleMap, type RoleMap } from './auth/roles.js';
import { DEFAULT_MAX_TOKEN_AGE_SECONDS } from './auth/verifier.js';
import type { ApprovalSettings } from './services/approvals/policy.js';
import { parseDomainLimits, type DomainLimit } from './services/sending/domain-limits.js';
import type { WarmUpPlan } from './services/sending/warm-up.js';
import { z } from 'zod';

const DEV_TRACKING_SECRET = 'mailroom-dev-tracking-secret-not-for-production';

/**
 * A tracking secret that is a placeholder (published in an example file, a guide, a template) signs
 * links anyone can forge, however long it is: the words such examples use, or one character repeated.
 */
const PLACEHOLDER_SECRET = /change[\s_-]*me|replace[\s_-]*me|placeholder|your[\s_-]*secret|^(.)\1*$/i;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Empty strings count as unset, so `FOO=` in a .env file falls back to the default. */
const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value));

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL (${protocols.join(' or ')})`,
  );

/** `optionalString` then `schema` when set: errors keep the schema's own message. */
const ifSet = <T extends z.ZodType<unknown, string>>(schema: T) => optionalString.pipe(schema.optional());

const optionalUrl = (protocols: string[]) => ifSet(url(protocols));

const booleanFlag = ifSet(z.enum(['true', 'false', '1', '0'], 'must be true or false').transform((v) => v === 'true' || v === '1'));

const wholeNumber = (message: string) => z.string().regex(/^\d+$/, message).transform(Number);

const positiveInt = (fallback: number) =>
  ifSet(wholeNumber('must be a whole number').pipe(z.number().int().positive('must be above 0'))).transform((value) => value ?? fallback);

/** Express's names for address ranges, besides addresses and CIDR blocks. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which hops in front of the API may tell the client's address (X-Forwarded-For), for
 * the per-address rate limits. A hop count, `false`, or a list of addresses, CIDR blocks and range
 * names. Never `true`: trusting every hop lets any client pick its own address.
 */
const trustProxy = ifSet(
  z.string().transform((value, context) => {
    if (value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    if (value === 'true' || entries.some((entry) => !isProxyAddress(entry))) {
      context.addIssue({
        code: 'custom',
        message: `must be a hop count, false, or addresses, CIDR blocks and ${PROXY_RANGES.join(', ')} separated by commas (never true)`,
      });
      return z.NEVER;
    }
    return entries;
  }),
);

const emailAddress = z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address');

const envSchema = z.object({
  NODE_ENV: ifSet(z.enum(['development', 'test', 'production'], 'must be development, test or production')),
  PORT: ifSet(wholeNumber('must be a port number').pipe(z.number().max(65535, 'must be a port number'))).transform((port) => port ?? 8080),
  HEALTH_PORT: ifSet(
    wholeNumber('must be a port number').pipe(z.number().min(1, 'must be a port number').max(65535, 'must be a port number')),
  ),
  LOG_LEVEL: ifSet(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`)).transform((level) => level ?? 'info'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  DATABASE_POOL_MAX: positiveInt(8),
  SCHEMA_WAIT_SECONDS: positiveInt(120),
  HTTP_PROCESSES: positiveInt(availableParallelism()),
  TRUST_PROXY: trustProxy,
  AMQP_URL: optionalUrl(['amqp:', 'amqps:']),
  QUEUE_PREFIX: ifSet(z.string().regex(/^[\w.:-]+$/, 'may hold letters, digits, and . _ : - only')),
  OIDC_ISSUER: optionalUrl(['http:', 'https:']),
  OIDC_AUDIENCE: optionalString,
  OIDC_CLIENT_ID: optionalString,
  OIDC_JWKS_URI: optionalUrl(['http:', 'https:']),
  TOKEN_MAX_AGE_SECONDS: positiveInt(DEFAULT_MAX_TOKEN_AGE_SECONDS),
  // The token's claim holding the member's roles or groups, a dotted path (realm_access.roles, groups).
  OIDC_ROLES_CLAIM: ifSet(z.string().regex(/^[^.\s]+(\.[^.\s]+)*$/, 'must be a claim name or a dotted path such as realm_access.roles')),
  // claim-value=role pairs; unset: every member is admin.
  ROLE_MAP: ifSet(
    z.string().transform((text, ctx): RoleMap => {
      try {
        return parseRoleMap(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  ),
  // Per client address: failed sign-ins on /api per 15 minutes, and requests to the public routes per minute.
  RATE_LIMIT_SIGN_IN_FAILURES: positiveInt(100),
  RATE_LIMIT_PUBLIC: positiveInt(3000),
  // Per API key: calls per minute.
  RATE_LIMIT_API_KEY: positiveInt(600),
  ORG_EMAIL_DOMAIN: ifSet(
    z
      .string()
      .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'must be a domain name such as example.org')
      .transform((domain) => domain.toLowerCase()),
  ),
  ORG_NAME: optionalString,
  // The organisation's locale (a BCP 47 tag Intl knows): merge tags write numbers and dates in it.
  ORG_LOCALE: ifSet(z.string().refine(isKnownLocale, 'must be a locale such as en-GB or de-DE')),
  AWS_REGION: optionalString,
  SES_ENDPOINT: optionalUrl(['http:', 'https:']),
  SES_CONFIGURATION_SET: optionalString,
  AUTHORIZED_SENDER_EMAILS: ifSet(
    z
      .string()
      .transform((list) =>
        list
          .split(',')
          .map((address) => address.trim())
          .filter((address) => address !== ''),
      )
      .pipe(z.array(emailAddress).min(1, 'must list at least one address')),
  ),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  TRACKING_SECRET: ifSet(z.string().min(16, 'must be at least 16 characters')),
  SNS_TOPIC_ARNS: ifSet(
    z
      .string()
      .transform((list) =>
        list
          .split(',')
          .map((arn) => arn.trim())
          .filter((arn) => arn !== ''),
      )
      .pipe(z.array(z.string().regex(/^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]{1,256}$/, 'must be SNS topic ARNs'))),
  ),
  IMPORT_MAX_BYTES: positiveInt(200 * 1024 * 1024),
  IMPORT_DIR: optionalString,
  // The import spool in S3 instead of IMPORT_DIR (API and workers on several hosts).
  S3_BUCKET: ifSet(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')),
  S3_ENDPOINT: optionalUrl(['http:', 'https:']),
  S3_FORCE_PATH_STYLE: booleanFlag,
  AWS_SECRET_ACCESS_KEY: optionalString,
  // The S3 spool's own key pair, when its store is not reached with the SES credentials (MinIO).
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  // A contact row is a few hundred characters; 64 K leaves room for long custom fields while an
  // unclosed quote is caught before it swallows the file.
  IMPORT_MAX_LINE_CHARS: positiveInt(64 * 1024),
  IMPORT_MAX_COLUMNS: positiveInt(200),
  IMPORT_STALE_MINUTES: positiveInt(30),
  SEND_CONCURRENCY: positiveInt(50),
  SEND_STALE_SECONDS: positiveInt(120),
  UNCONFIRMED_RESEND_AFTER_MINUTES: positiveInt(60),
  // Per receiving domain, the most mails a second all workers together send: gmail.com=50,*.edu=10 (services/sending/domain-limits.ts).
  DOMAIN_RATE_LIMITS: ifSet(
    z.string().transform((text, ctx) => {
      try {
        return parseDomainLimits(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  ),
  // The warm-up plan (services/sending/warm-up.ts): WARMUP_START mails on WARMUP_START_DATE (UTC), WARMUP_FACTOR times more each day.
  WARMUP_START: ifSet(wholeNumber('must be a whole number').pipe(z.number().int().positive('must be above 0'))),
  WARMUP_FACTOR: ifSet(
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be a number such as 1.5')
      .transform(Number)
      .pipe(z.number().min(1, 'must be 1 or more').max(10, 'must be 10 or less')),
  ),
  WARMUP_START_DATE: ifSet(
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2026-11-30')
      .refine(
        (date) => !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date),
        'must be a real date',
      ),
  ),
  // An address whose last this many mails all bounced softly is suppressed (SOFT_BOUNCE).
  SOFT_BOUNCE_LIMIT: positiveInt(3),
  ACTIVITY_RETENTION_DAYS: positiveInt(400),
  // Sign-up forms (services/subscriptions): how long a confirmation link holds, and how many posts an hour one
  // client address may make without solving the proof-of-work (a browser without JavaScript).
  SIGNUP_LINK_DAYS: positiveInt(7),
  SIGNUP_UNSOLVED_POSTS_PER_HOUR: positiveInt(5),
  // Send approval (issue 27): every send waits for another member's approval, or only those to an audience of more
  // contacts than SEND_APPROVAL_ABOVE. Neither set: no approval, the spec's behaviour.
  SEND_APPROVAL: booleanFlag,
  SEND_APPROVAL_ABOVE: ifSet(wholeNumber('must be a whole number of contacts')),
  // Outgoing webhooks (services/webhooks): one attempt's time limit, attempts at once per endpoint and worker, and the
  // first retry's delay (each later one doubles, up to an hour, for 24 hours).
  WEBHOOK_TIMEOUT_SECONDS: positiveInt(10),
  WEBHOOK_ENDPOINT_CONCURRENCY: positiveInt(8),
  WEBHOOK_RETRY_BASE_MS: positiveInt(5000),
  // Production refuses http and private addresses as webhook endpoints; true allows them (a receiver on the
  // organisation's own network, such as a self-hosted n8n; the benchmarks' local receiver).
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag,
  ORG_COLOR: ifSet(z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #0f6cbd')),
  STACK_HOST: optionalString,
  EMBEDDED_POSTGRES_PORT: positiveInt(5433),
  EMBEDDED_SES_PORT: positiveInt(8005),
  EMBEDDED_OIDC_PORT: positiveInt(4000),
  EMBEDDED_SNS_CERTIFICATE_FILE: optionalString,
  REMOTES_PORT_BASE: positiveInt(REMOTES_PORT_BASE),
  AWS_ACCESS_KEY_ID: optionalString,
  STOCK_PHOTO_URL: optionalUrl(['http:', 'https:']),
  STOCK_PHOTO_KEY: optionalString,
  VALIDATE_RESPONSES: booleanFlag,
  MAILROOM_OPERATION_LOG: optionalString,
  EMAIL_EDITOR_SCRIPT_URL: optionalUrl(['http:', 'https:']),
});

/**
 * Every setting a process reads from its environment, with its parsing and the defaults that need no
 * other setting: docs/operations.md's table lists each one, and tests/deploy checks the two agree.
 */
export const settingsSchema = envSchema;

export interface Config {
  nodeEnv: 'development' | 'test' | 'production';
  port: number;
  /** The worker's probes (/healthz, /readyz) listen here when set: a worker serves no other HTTP. */
  healthPort: number | undefined;
  /**
   * Processes of the HTTP entry sharing its port (node:cluster): one per core by default, as a Node
   * process answers on one. Always 1 without AMQP_URL.
   */
  httpProcesses: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * Express's `trust proxy`: the hops in front whose X-Forwarded-For gives the client's address
   * (rate limits count per address). Default: loopback only (a proxy on the same machine).
   */
  trustProxy: number | false | readonly string[];
  databaseUrl: string;
  databasePoolMax: number;
  /**
   * In production the migration step applies the migrations, and the API and the workers wait this
   * long for it before refusing to start (db/migrate.ts, waitForSchema); elsewhere they migrate at start.
   */
  schemaWaitMs: number;
  /** Unset: the in-process queue (single process only). */
  amqpUrl: string | undefined;
  /** Put before every broker queue name (several environments or test runs on one broker). */
  queuePrefix: string;
  oidc: {
    issuer: string;
    audience: string;
    clientId: string;
    /** Unset: taken from the issuer's discovery document. */
    jwksUri: string | undefined;
  };
  /** Tokens issued longer ago than this are refused, whatever their expiry. */
  tokenMaxAgeSeconds: number;
  /**
   * Roles from the identity provider (issue 27): the claim (OIDC_ROLES_CLAIM, default `roles`) and the map of its values
   * to roles (ROLE_MAP). An empty map: every member is admin; a map: the highest mapped role, viewer when none maps.
   */
  roles: { claim: string; map: RoleMap };
  /** Per client address: failed sign-ins (401/403 on /api) per 15 minutes; requests to the public routes per minute. */
  rateLimits: { signInFailures: number; publicRequests: number; apiKeyRequests: number };
  orgEmailDomain: string;
  orgName: string;
  /** ORG_LOCALE: the locale merge tags write numbers and dates in. */
  orgLocale: string;
  aws: {
    region: string;
    /** Unset: the real SES endpoint of the region. */
    sesEndpoint: string | undefined;
    sesConfigurationSet: string | undefined;
  };
  authorizedSenders: readonly string[];
  /** Base of every link put into mail (tracking, unsubscribe), without a trailing slash. */
  publicUrl: string;
  trackingSecret: string;
  /** The SES event webhook: only messages of these SNS topics are taken (none configured: none taken). */
  sesEvents: { topicArns: readonly string[]; softBounceLimit: number };
  import: ImportSettings;
  sending: SendingSettings;
  /** The activity log (an addition to the spec): entries older than this many days are removed by the worker's sweep. */
  activity: { retentionDays: number };
  /** The organisation's colour on its public pages (sign-up forms), as #rrggbb. */
  orgColor: string;
  /** Sign-up forms: a confirmation link's lifetime; posts an hour per client address taken without the proof-of-work. */
  signup: { linkDays: number; unsolvedPostsPerHour: number };
  /** Send approval (issue 27): SEND_APPROVAL, SEND_APPROVAL_ABOVE (services/approvals/policy.ts). */
  approval: ApprovalSettings;
  /** Outgoing webhooks: an attempt's limit, attempts at once per endpoint in one worker, the first retry's delay. */
  webhooks: { timeoutMs: number; endpointConcurrency: number; retryBaseMs: number; allowPrivateTargets: boolean };
  /** What the one-command stack (api/dev/stack) starts embedded, and where. */
  stack: StackSettings;
  /** The drag-and-drop email editor's script (browser side); its origin is allowed by the shell's CSP. */
  emailEditorScriptUrl: string;
  stockPhoto: { url: string | undefined; key: string | undefined };
  validateResponses: boolean;
  /** When set, one JSON line per handled API operation is appended here (contract coverage). */
  operationLogPath: string | undefined;
}

/**
 * The contact import. The spool is where the HTTP process streams each accepted upload and the
 * worker reads it from (spool/): an S3 bucket when S3_BUCKET is set (nothing shared between hosts
 * but the bucket), else the folder IMPORT_DIR, which the HTTP process and the worker must both see
 * (the same machine, or a shared volume). Default: `.data/imports` at the repository root.
 */
export interface ImportSettings {
  /** The largest upload taken (413 above it); the browser is told too. */
  maxBytes: number;
  spool:
    | { kind: 'folder'; dir: string }
    | {
        kind: 's3';
        bucket: string;
        region: string;
        endpoint: string | undefined;
        forcePathStyle: boolean;
        /** Unset: the SDK's default chain (environment, profile, instance or task role), as SES. */
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      };
  maxLineChars: number;
  maxColumns: number;
  /** An audience importing longer than this with no worker on it is failed as interrupted. */
  staleAfterMs: number;
}

/** Campaign sending in the worker (services/sending). */
export interface SendingSettings {
  /** SES calls in flight at once per worker process. */
  concurrency: number;
  /**
   * A job claimed longer than this without an outcome (its worker died mid-send) becomes UNKNOWN,
   * and a sending campaign idle this long has its queued jobs published again.
   */
  staleAfterMs: number;
  /**
   * An UNKNOWN job that no SES event has confirmed this long after it was claimed may be resent from
   * the report ('Resend unconfirmed'): SES's events come within minutes, so by then silence is likely
   * (not certain) to mean the mail never left.
   */
  unconfirmedResendAfterMs: number;
  /** DOMAIN_RATE_LIMITS: per receiving domain, the most mails a second of every worker together (none: no limit). */
  domainLimits: readonly DomainLimit[];
  /** The warm-up plan (WARMUP_*), when one is set: the day's volume holds campaigns until the next day. */
  warmUp?: WarmUpPlan | undefined;
}

export interface StackSettings {
  host: string;
  /** Each piece runs embedded unless its variable points at a real one. */
  embedded: { postgres: boolean; ses: boolean; oidc: boolean };
  ports: { postgres: number; ses: number; oidc: number; remotesBase: number };
  /**
   * With the embedded SES, the certificate that SES event messages to the webhook are signed with,
   * in place of the one SNS publishes at their SigningCertURL (every other rule of the webhook still
   * applies): delivery, bounce and complaint events of the local mail, posted by the developer or
   * the e2e suite. Never in production, and only by the one-command stack.
   */
  snsCertificateFile: string | undefined;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Which process reads the configuration. With NODE_ENV=production each refuses to start without the
 * settings it uses: the API and the workers all of them; the static front what it tells the shell;
 * the migration step the database.
 */
export type ConfigRole = 'api' | 'web' | 'migrate';

/** What each role refuses to start without when NODE_ENV=production (`api`: the http and worker commands). */
export const PRODUCTION_SETTINGS: Record<ConfigRole, readonly string[]> = {
  api: ['DATABASE_URL', 'AMQP_URL', 'OIDC_ISSUER', 'ORG_EMAIL_DOMAIN', 'AUTHORIZED_SENDER_EMAILS', 'PUBLIC_URL', 'TRACKING_SECRET'],
  web: ['OIDC_ISSUER', 'ORG_EMAIL_DOMAIN', 'PUBLIC_URL'],
  migrate: ['DATABASE_URL'],
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, { role = 'api' }: { role?: ConfigRole } = {}): Readonly<Config> {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`));
  }
  const e = parsed.data;
  const nodeEnv = e.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';

  const problems: string[] = [];
  const needed = PRODUCTION_SETTINGS[role];
  const required = <T>(name: string, value: T | undefined, devDefault: T): T => {
    if (value !== undefined) return value;
    if (production && needed.includes(name)) problems.push(`${name}: required when NODE_ENV=production`);
    return devDefault;
  };
  // Without a broker the queue is in one process's memory: a restart loses what it held, and no
  // second process (another API, a worker) can take part.
  if (production && needed.includes('AMQP_URL') && !e.AMQP_URL) problems.push('AMQP_URL: required when NODE_ENV=production');
  // The key that signs every tracking and unsubscribe link: the development one is public.
  if (production && e.TRACKING_SECRET === DEV_TRACKING_SECRET) {
    problems.push('TRACKING_SECRET: the development secret is not allowed when NODE_ENV=production');
  } else if (production && e.TRACKING_SECRET && PLACEHOLDER_SECRET.test(e.TRACKING_SECRET)) {
    problems.push('TRACKING_SECRET: a placeholder is not allowed when NODE_ENV=production (use 32 random bytes or more)');
  }

  // Who may sign in: a deployment that forgot it would let in no one of its own.
  const orgEmailDomain = required('ORG_EMAIL_DOMAIN', e.ORG_EMAIL_DOMAIN, 'example.org');
  const config: Config = {
    nodeEnv,
    port: e.PORT,
    healthPort: e.HEALTH_PORT,
    // Without a broker the queue lives in the HTTP process, and so must everything it carries.
    httpProcesses: e.AMQP_URL ? e.HTTP_PROCESSES : 1,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY ?? ['loopback'],
    databaseUrl: required('DATABASE_URL', e.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/mailroom'),
    databasePoolMax: e.DATABASE_POOL_MAX,
    schemaWaitMs: e.SCHEMA_WAIT_SECONDS * 1000,
    amqpUrl: e.AMQP_URL,
    queuePrefix: e.QUEUE_PREFIX ?? '',
    oidc: {
      issuer: required('OIDC_ISSUER', e.OIDC_ISSUER, 'http://localhost:4000'),
      audience: e.OIDC_AUDIENCE ?? 'mailroom-api',
      clientId: e.OIDC_CLIENT_ID ?? 'mailroom-shell',
      jwksUri: e.OIDC_JWKS_URI,
    },
    tokenMaxAgeSeconds: e.TOKEN_MAX_AGE_SECONDS,
    roles: { claim: e.OIDC_ROLES_CLAIM ?? 'roles', map: e.ROLE_MAP ?? new Map() },
    rateLimits: {
      signInFailures: e.RATE_LIMIT_SIGN_IN_FAILURES,
      publicRequests: e.RATE_LIMIT_PUBLIC,
      apiKeyRequests: e.RATE_LIMIT_API_KEY,
    },
    orgEmailDomain,
    orgName: e.ORG_NAME ?? 'Example',
    orgLocale: e.ORG_LOCALE ?? 'en-GB',
    aws: {
      region: e.AWS_REGION ?? 'us-east-1',
      sesEndpoint: e.SES_ENDPOINT,
      sesConfigurationSet: e.SES_CONFIGURATION_SET,
    },
    authorizedSenders: Object.freeze(required('AUTHORIZED_SENDER_EMAILS', e.AUTHORIZED_SENDER_EMAILS, [`newsletter@${orgEmailDomain}`])),
    publicUrl: required('PUBLIC_URL', e.PUBLIC_URL, 'http://localhost:8080').replace(/\/+$/, ''),
    trackingSecret: required('TRACKING_SECRET', e.TRACKING_SECRET, DEV_TRACKING_SECRET),
    sesEvents: { topicArns: e.SNS_TOPIC_ARNS ?? [], softBounceLimit: e.SOFT_BOUNCE_LIMIT },
    import: {
      maxBytes: e.IMPORT_MAX_BYTES,
      spool: e.S3_BUCKET
        ? {
            kind: 's3',
            bucket: e.S3_BUCKET,
            region: e.AWS_REGION ?? 'us-east-1',
            endpoint: e.S3_ENDPOINT,
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
            credentials:
              e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
                : undefined,
          }
        : { kind: 'folder', dir: resolve(REPO_ROOT, e.IMPORT_DIR ?? '.data/imports') },
      maxLineChars: e.IMPORT_MAX_LINE_CHARS,
      maxColumns: e.IMPORT_MAX_COLUMNS,
      staleAfterMs: e.IMPORT_STALE_MINUTES * 60_000,
    },
    sending: {
      concurrency: e.SEND_CONCURRENCY,
      staleAfterMs: e.SEND_STALE_SECONDS * 1000,
      unconfirmedResendAfterMs: e.UNCONFIRMED_RESEND_AFTER_MINUTES * 60_000,
      domainLimits: e.DOMAIN_RATE_LIMITS ?? [],
      warmUp:
        e.WARMUP_START !== undefined && e.WARMUP_FACTOR !== undefined && e.WARMUP_START_DATE !== undefined
          ? { start: e.WARMUP_START, factor: e.WARMUP_FACTOR, startDate: e.WARMUP_START_DATE }
          : undefined,
    },
    activity: { retentionDays: e.ACTIVITY_RETENTION_DAYS },
    orgColor: (e.ORG_COLOR ?? '#0f6cbd').toLowerCase(),
    signup: { linkDays: e.SIGNUP_LINK_DAYS, unsolvedPostsPerHour: e.SIGNUP_UNSOLVED_POSTS_PER_HOUR },
    approval: { always: e.SEND_APPROVAL ?? false, above: e.SEND_APPROVAL_ABOVE },
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
      endpointConcurrency: e.WEBHOOK_ENDPOINT_CONCURRENCY,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? false,
    },
    stack: {
      host: e.STACK_HOST ?? 'localhost',
      embedded: { postgres: !e.DATABASE_URL, ses: !e.SES_ENDPOINT && !e.AWS_ACCESS_KEY_ID, oidc: !e.OIDC_ISSUER },
      ports: { postgres: e.EMBEDDED_POSTGRES_PORT, ses: e.EMBEDDED_SES_PORT, oidc: e.EMBEDDED_OIDC_PORT, remotesBase: e.REMOTES_PORT_BASE },
      snsCertificateFile: e.EMBEDDED_SNS_CERTIFICATE_FILE,
    },
    emailEditorScriptUrl: e.EMAIL_EDITOR_SCRIPT_URL ?? DEFAULT_EMAIL_EDITOR_SCRIPT_URL,
    stockPhoto: { url: e.STOCK_PHOTO_URL, key: e.STOCK_PHOTO_KEY },
    validateResponses: e.VALIDATE_RESPONSES ?? !production,
    operationLogPath: e.MAILROOM_OPERATION_LOG,
  };
  if (production && e.EMBEDDED_SNS_CERTIFICATE_FILE) {
    problems.push('EMBEDDED_SNS_CERTIFICATE_FILE: not allowed when NODE_ENV=production (SES events are verified against SNS only)');
  }
  problems.push(...s3SpoolProblems(e, production));
  const warmUpSet = [e.WARMUP_START, e.WARMUP_FACTOR, e.WARMUP_START_DATE].filter((value) => value !== undefined).length;
  if (warmUpSet > 0 && warmUpSet < 3)
    problems.push('WARMUP_START, WARMUP_FACTOR, WARMUP_START_DATE: a warm-up plan needs all three (or none)');
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config);
}

/**
 * Half an S3 spool configuration is refused at start rather than found out at the first import: the
 * S3-compatible settings without a bucket (the spool would silently stay a local folder, which the
 * other hosts do not see), a production bucket without its region (requests would go to the default
 * region's endpoint), and one half of a static key pair (the SDK would fail at the first call).
 */
function s3SpoolProblems(e: z.infer<typeof envSchema>, production: boolean): string[] {
  const problems: string[] = [];
  if (!e.S3_BUCKET) {
    if (e.S3_ENDPOINT) problems.push('S3_ENDPOINT: set S3_BUCKET too (or unset S3_ENDPOINT to spool imports in IMPORT_DIR)');
    if (e.S3_FORCE_PATH_STYLE !== undefined) problems.push('S3_FORCE_PATH_STYLE: set S3_BUCKET too');
  } else if (production && !e.AWS_REGION && !e.S3_ENDPOINT) {
    problems.push("AWS_REGION: required with S3_BUCKET when NODE_ENV=production (the bucket's region)");
  }
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    problems.push(
      e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID' : 'S3_ACCESS_KEY_ID: required with S3_SECRET_ACCESS_KEY',
    );
  } else if (e.S3_ACCESS_KEY_ID && !e.S3_BUCKET) {
    problems.push("S3_ACCESS_KEY_ID: set S3_BUCKET too (the keys are the S3 spool's)");
  }
  if (!e.AWS_ACCESS_KEY_ID !== !e.AWS_SECRET_ACCESS_KEY) {
    problems.push(
      e.AWS_ACCESS_KEY_ID
        ? 'AWS_SECRET_ACCESS_KEY: required with AWS_ACCESS_KEY_ID'
        : 'AWS_ACCESS_KEY_ID: required with AWS_SECRET_ACCESS_KEY',
    );
  }
  return problems;
}

function deepFreeze<T extends object>(value: T): Readonly<T> {
  for (const child of Object.values(value)) {
    if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) deepFreeze(child as object);
  }
  return Object.freeze(value);
}
