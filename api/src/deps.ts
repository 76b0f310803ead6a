/**
 * The wiring every entry point shares (http, worker, the one-command stack, tests): one place that
 * turns a Config into live dependencies, builds every service once, and closes them in order.
 * Routers, consumers and (later) webhooks receive the services from here; none builds its own.
 */
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Sequelize } from 'sequelize';
import { createTokenVerifier, type TokenVerifier } from './auth/verifier.js';
import type { Config } from './config.js';
import { Database } from './db/database.js';
import { defineModels } from './db/models/index.js';
import { createSequelize } from './db/sequelize.js';
import { createLogger, type Logger } from './logger.js';
import { createSesClient } from './mail/ses.js';
import { createMessageQueueAdapter } from './queue/index.js';
import type { MessageQueueAdapter } from './queue/message-queue.js';
import { MessageQueue } from './queue/typed-message-queue.js';
import { createActivityService, type ActivityService } from './services/activity/activity-service.js';
import { createApprovalService, type ApprovalService } from './services/approvals/approval-service.js';
import { approvalPolicy } from './services/approvals/policy.js';
import { approvalQueues } from './services/approvals/queues.js';
import { createApiKeyService, type ApiKeyService } from './services/api-keys/api-key-service.js';
import { createAudienceService, type AudienceService } from './services/audiences/audience-service.js';
import { audienceQueues } from './services/audiences/queues.js';
import { createCampaignService, type CampaignService } from './services/campaigns/campaign-service.js';
import { createFollowUpService, type FollowUpService } from './services/campaigns/follow-up-service.js';
import { createAbTestService, type AbTestService } from './services/campaigns/ab-test-service.js';
import { createSchedulingService, type SchedulingService } from './services/campaigns/scheduling-service.js';
import { createTestMailService, type TestMailService } from './services/campaigns/test-mail-service.js';
import { createContactService, type ContactService } from './services/contacts/contact-service.js';
import { createImportService, type ImportService } from './services/imports/import-service.js';
import { importQueues } from './services/imports/queues.js';
import { createFieldService, type FieldService } from './services/fields/field-service.js';
import { createSegmentService, type SegmentService } from './services/segments/segment-service.js';
import { fieldQueues } from './services/fields/queues.js';
import { createPeopleService, type PeopleService } from './services/people/people-service.js';
import { createQuotaService, sesSendQuotaSource, type QuotaService } from './services/quota/quota-service.js';
import { createReportService, type ReportService } from './services/reports/report-service.js';
import { createSendRateLimiter } from './services/sending/send-rate.js';
import { sendingQueues } from './services/sending/queues.js';
import { createSendingService, type SendingService } from './services/sending/sending-service.js';
import { createTrackingService, type TrackingService } from './services/tracking/tracking-service.js';
import { createPreferenceService, type PreferenceService } from './services/preferences/preference-service.js';
import { createSesEventService, visitSubscribeUrl, type SesEventService } from './services/ses-events/ses-events-service.js';
import { snsVerifier, type SnsVerifier } from './services/ses-events/sns-message.js';
import { createSuppressionService, type SuppressionService } from './services/suppressions/suppression-service.js';
import { signupChallenges } from './services/subscriptions/challenge.js';
import { confirmTokens } from './services/subscriptions/confirm-token.js';
import { createFormService, type FormService } from './services/subscriptions/form-service.js';
import { createSignupService, type SignupService } from './services/subscriptions/signup-service.js';
import { signupQueues } from './services/subscriptions/queues.js';
import { createTemplateService, type TemplateService } from './services/templates/template-service.js';
import { webhookQueues } from './services/webhooks/queues.js';
import { createWebhookService, type WebhookService } from './services/webhooks/webhook-service.js';
import { createImportSpool, type ImportSpool } from './spool/index.js';

/** Every feature's queues (name → the schema of its messages), joined: one line per feature. */
export const QUEUES = {
  ...audienceQueues,
  ...sendingQueues,
  ...importQueues,
  ...fieldQueues,
  ...signupQueues,
  ...approvalQueues,
  ...webhookQueues,
};

/** The product's message queue: every feature's queues. */
export type ProductMessageQueue = MessageQueue<typeof QUEUES>;

/** Every feature's service, built once: one line per feature. */
export interface Services {
  activity: ActivityService;
  audiences: AudienceService;
  imports: ImportService;
  quota: QuotaService;
  sending: SendingService;
  campaigns: CampaignService;
  scheduling: SchedulingService;
  followUps: FollowUpService;
  abTests: AbTestService;
  testMails: TestMailService;
  reports: ReportService;
  tracking: TrackingService;
  sesEvents: SesEventService;
  templates: TemplateService;
  suppressions: SuppressionService;
  fields: FieldService;
  forms: FormService;
  signups: SignupService;
  people: PeopleService;
  contacts: ContactService;
  preferences: PreferenceService;
  segments: SegmentService;
  approvals: ApprovalService;
  webhooks: WebhookService;
  apiKeys: ApiKeyService;
}

export interface AppDeps {
  config: Readonly<Config>;
  logger: Logger;
  /** The data layer: models, transactions, raw SQL where it earns its place. */
  db: Database;
  messageQueue: ProductMessageQueue;
  ses: SESv2Client;
  /** Where accepted uploads wait for the import worker: a folder or an S3 bucket (spool/). */
  spool: ImportSpool;
  verifier: TokenVerifier;
  services: Services;
}

/** Pieces a test or the stack may hand in instead of having them built. */
export interface DepsOverrides {
  logger?: Logger;
  sequelize?: Sequelize;
  /** A message queue adapter (RabbitMQ or in-process); it is typed by QUEUES here. */
  messageQueueAdapter?: MessageQueueAdapter;
  /** How long a publish waits for a broker that is away (the HTTP process: seconds; default two minutes). */
  publishWaitMs?: number;
  ses?: SESv2Client;
  spool?: ImportSpool;
  verifier?: TokenVerifier;
  /** SNS signature checks (tests hand in one whose certificate fetcher serves their own certificate). */
  snsVerifier?: SnsVerifier;
  /** Visits a genuine SNS SubscribeURL. */
  confirmSubscription?: (url: string) => Promise<void>;
  /** The clock of the warm-up's days (epoch milliseconds): tests move it to the next day. Default Date.now. */
  clock?: () => number;
}

function createServices(deps: Omit<AppDeps, 'services'>, overrides: DepsOverrides): Services {
  const { config, logger, db, messageQueue, ses, spool } = deps;
  const account = sesSendQuotaSource(ses);
  const activity = createActivityService({
    db,
    retentionDays: config.activity.retentionDays,
    logger: logger.child({ component: 'activity' }),
  });
  const sending = createSendingService({
    db,
    messageQueue,
    ses,
    limiter: createSendRateLimiter(db, () => account.sendQuota(), logger.child({ component: 'send-rate' }), {
      warmUp: config.sending.warmUp,
      now: overrides.clock,
    }),
    now: overrides.clock,
    settings: config.sending,
    publicUrl: config.publicUrl,
    trackingSecret: config.trackingSecret,
    configurationSet: config.aws.sesConfigurationSet,
    locale: config.orgLocale,
    logger: logger.child({ component: 'sending' }),
  });
  const segments = createSegmentService({ db });
  const campaigns = createCampaignService({
    db,
    sending,
    segments,
    authorizedSenders: config.authorizedSenders,
    needsApproval: approvalPolicy(config.approval),
    logger: logger.child({ component: 'campaigns' }),
  });
  const scheduling = createSchedulingService({ db, campaigns, logger: logger.child({ component: 'scheduling' }) });
  const signups = createSignupService({
    db,
    queue: messageQueue,
    sending,
    challenges: signupChallenges({ secret: config.trackingSecret }),
    tokens: confirmTokens(config.trackingSecret),
    publicUrl: config.publicUrl,
    orgColor: config.orgColor,
    configurationSet: config.aws.sesConfigurationSet,
    settings: config.signup,
    logger: logger.child({ component: 'signups' }),
  });
  return {
    activity,
    audiences: createAudienceService({
      db,
      activityLog: activity,
      queue: messageQueue,
      importSettings: config.import,
      logger: logger.child({ component: 'audiences' }),
    }),
    imports: createImportService({
      db,
      queue: messageQueue,
      spool,
      importSettings: config.import,
      logger: logger.child({ component: 'imports' }),
    }),
    quota: createQuotaService(account),
    sending,
    campaigns,
    scheduling,
    followUps: createFollowUpService({ db, segments }),
    abTests: createAbTestService({ db, sending, logger: logger.child({ component: 'ab-tests' }) }),
    testMails: createTestMailService({
      db,
      activityLog: activity,
      sending,
      authorizedSenders: config.authorizedSenders,
      configurationSet: config.aws.sesConfigurationSet,
      locale: config.orgLocale,
      logger: logger.child({ component: 'test-mails' }),
    }),
    reports: createReportService({
      db,
      activityLog: activity,
      sending,
      campaigns,
      logger: logger.child({ component: 'reports' }),
      orgEmailDomain: config.orgEmailDomain,
    }),
    tracking: createTrackingService({ db, trackingSecret: config.trackingSecret, logger: logger.child({ component: 'tracking' }) }),
    sesEvents: createSesEventService({
      db,
      verify: overrides.snsVerifier ?? snsVerifier(),
      topicArns: config.sesEvents.topicArns,
      softBounceLimit: config.sesEvents.softBounceLimit,
      confirmSubscription: overrides.confirmSubscription ?? visitSubscribeUrl,
      logger: logger.child({ component: 'ses-events' }),
    }),
    templates: createTemplateService({ db }),
    suppressions: createSuppressionService({ db, activityLog: activity, limits: config.import }),
    fields: createFieldService({
      db,
      queue: messageQueue,
      logger: logger.child({ component: 'fields' }),
      // A sign-up form's page asks the audience's fields as they are now (signup-service.ts, FORM_CACHE_MS).
      onChange: () => signups.forgetForms(),
    }),
    forms: createFormService({
      db,
      publicUrl: config.publicUrl,
      orgName: config.orgName,
      authorizedSenders: config.authorizedSenders,
      // The public routes of this process read a changed form again at once (signup-service.ts, FORM_CACHE_MS).
      onChange: () => signups.forgetForms(),
    }),
    signups,
    people: createPeopleService({ db, activityLog: activity }),
    contacts: createContactService({ db }),
    preferences: createPreferenceService({ db, trackingSecret: config.trackingSecret }),
    segments,
    approvals: createApprovalService({
      db,
      queue: messageQueue,
      campaigns,
      scheduling,
      policy: approvalPolicy(config.approval),
      sending,
      // The organisation's own sender, as its other notices (the first authorized address).
      mail: {
        from: { name: config.orgName, email: config.authorizedSenders[0] ?? `newsletter@${config.orgEmailDomain}` },
        publicUrl: config.publicUrl,
        configurationSet: config.aws.sesConfigurationSet,
      },
      logger: logger.child({ component: 'approvals' }),
    }),
    webhooks: createWebhookService({
      db,
      queue: messageQueue,
      // The target checks hold in production unless the operator allows its own network (WEBHOOK_ALLOW_PRIVATE_TARGETS).
      production: config.nodeEnv === 'production' && !config.webhooks.allowPrivateTargets,
      settings: config.webhooks,
      logger: logger.child({ component: 'webhooks' }),
    }),
    apiKeys: createApiKeyService({ db }),
  };
}

/** Builds every dependency from the configuration; `overrides` replace single pieces (tests, stack). */
export async function createDeps(config: Readonly<Config>, overrides: DepsOverrides = {}): Promise<AppDeps> {
  const logger = overrides.logger ?? createLogger(config);
  const sequelize = overrides.sequelize ?? createSequelize(config, logger.child({ component: 'db' }));
  const base = {
    config,
    logger,
    db: new Database(sequelize, defineModels(sequelize)),
    messageQueue: new MessageQueue(
      overrides.messageQueueAdapter ??
        createMessageQueueAdapter(config, logger, overrides.publishWaitMs === undefined ? {} : { publishWaitMs: overrides.publishWaitMs }),
      QUEUES,
      logger.child({ component: 'queue' }),
    ),
    ses: overrides.ses ?? createSesClient(config),
    spool: overrides.spool ?? createImportSpool(config.import.spool),
    verifier:
      overrides.verifier ??
      createTokenVerifier({
        issuer: config.oidc.issuer,
        audience: config.oidc.audience,
        orgEmailDomain: config.orgEmailDomain,
        jwksUri: config.oidc.jwksUri,
        maxTokenAgeSeconds: config.tokenMaxAgeSeconds,
        rolesClaim: config.roles.claim,
        roleMap: config.roles.map,
      }),
  };
  return { ...base, services: createServices(base, overrides) };
}

/**
 * Closes what createDeps opened. The queue first: its close waits for running handlers, which
 * still need the database.
 */
export async function closeDeps(deps: AppDeps): Promise<void> {
  const errors: unknown[] = [];
  const step = async (work: () => Promise<unknown> | void) => {
    try {
      await work();
    } catch (error) {
      errors.push(error);
    }
  };
  await step(() => deps.messageQueue.close());
  await step(() => deps.services.sending.close());
  await step(() => deps.services.tracking.close());
  await step(() => deps.services.webhooks.close());
  await step(() => deps.db.close());
  await step(() => deps.ses.destroy());
  await step(() => deps.spool.close());
  if (errors.length > 0) throw new AggregateError(errors, 'Some dependencies did not close cleanly');
}
