import type { Sequelize } from 'sequelize';
import { Audience } from './audience.js';
import { AudienceField } from './audience-field.js';
import { Campaign } from './campaign.js';
import { CampaignJob } from './campaign-job.js';
import { Contact } from './contact.js';
import { Segment } from './segment.js';
import { Suppression } from './suppression.js';
import { SuppressionRemoval } from './suppression-removal.js';
import { Template } from './template.js';

export { Audience, AudienceField, Campaign, CampaignJob, Contact, Segment, Suppression, SuppressionRemoval, Template };
export type { AudienceSource } from './audience.js';
export type { CampaignStatus, FollowUpRecipients } from './campaign.js';
export type { BounceType, CampaignJobStatus } from './campaign-job.js';
export type { SuppressionReason } from './suppression.js';

/**
 * Tables the repositories reach only by SQL, so without a model (a model nothing uses is a second
 * description of the table to keep in step for nothing). Written by the migrations' SQL functions
 * and triggers: campaign_job_counts (triggers on campaign_jobs, 0006), send_rate (the rate schedule,
 * 0005), tracking_events (the tracking recorder, 0005), the report's campaign_hourly_counts and
 * campaign_domain_counts (triggers on campaign_jobs and tracking_events, 0016), suppression_counts
 * (triggers on suppressions, 0013) and soft_bounce_streaks (soft_bounce_counted, 0013). Written by
 * statements where raw SQL earns its place: campaign_links (taken from the html at send; the
 * tracking recorder's SQL counts their clicks, 0005 and 0015), sns_messages (INSERT ... ON CONFLICT DO NOTHING, once per
 * MessageId), follow_up_recipients (one INSERT ... SELECT over the original's jobs, 0012) and
 * activity (inserted on the caller's transaction, read by keyset pages, 0014).
 */
export const SQL_ONLY_TABLES: readonly string[] = [
  'activity',
  'activity_members',
  'api_keys',
  'audience_field_removals',
  'campaign_domain_counts',
  'campaign_hourly_counts',
  'campaign_job_counts',
  'campaign_link_counts',
  'campaign_links',
  'follow_up_recipients',
  'send_rate',
  'sns_messages',
  'tracking_events',
  'suppression_counts',
  'soft_bounce_streaks',
  // Sign-ups (migration 0026): written by the sign-up repositories' statements, the ledger append-only.
  'consent_ledger',
  'pending_signups',
  'signup_form_wordings',
  'signup_forms',
  'signup_mails',
  'signup_used_challenges',
  // A/B tests (migration 0036): the test and its variants, written by the A/B test repository's statements and the dispatch.
  'campaign_ab_tests',
  'campaign_variants',
  // Send approval (migration 0033): its repository's statements.
  'approval_requests',
  // Outgoing webhooks (migration 0034): deliveries written by triggers, claimed and settled by conditional UPDATEs.
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_endpoints',
  // Domain limits and warm-up (migration 0035): the shared schedules and counts the send path's statements keep.
  'campaign_domain_throttles',
  'domain_send_rate',
  'send_minute_counts',
];

export interface Models {
  Audience: typeof Audience;
  AudienceField: typeof AudienceField;
  Contact: typeof Contact;
  Template: typeof Template;
  Campaign: typeof Campaign;
  CampaignJob: typeof CampaignJob;
  Segment: typeof Segment;
  Suppression: typeof Suppression;
  SuppressionRemoval: typeof SuppressionRemoval;
}

/**
 * Defines the tables the application reads and writes row by row on `sequelize`, with associations.
 * Tables that only SQL functions write (SQL_ONLY_TABLES) have no model.
 */
export function defineModels(sequelize: Sequelize): Models {
  const models: Models = {
    Audience: Audience.initModel(sequelize),
    AudienceField: AudienceField.initModel(sequelize),
    Contact: Contact.initModel(sequelize),
    Template: Template.initModel(sequelize),
    Campaign: Campaign.initModel(sequelize),
    CampaignJob: CampaignJob.initModel(sequelize),
    Segment: Segment.initModel(sequelize),
    Suppression: Suppression.initModel(sequelize),
    SuppressionRemoval: SuppressionRemoval.initModel(sequelize),
  };
  const m = models;
  m.Audience.hasMany(m.Contact, { foreignKey: 'audienceId', as: 'contacts' });
  m.Audience.hasMany(m.AudienceField, { foreignKey: 'audienceId', as: 'fields' });
  m.Contact.belongsTo(m.Audience, { foreignKey: 'audienceId', as: 'audience' });
  m.Campaign.belongsTo(m.Audience, { foreignKey: 'audienceId', as: 'audience' });
  m.Campaign.belongsTo(m.Segment, { foreignKey: 'segmentId', as: 'segment' });
  m.Campaign.belongsTo(m.Template, { foreignKey: 'templateId', as: 'template' });
  m.Campaign.hasMany(m.CampaignJob, { foreignKey: 'campaignId', as: 'jobs' });
  m.CampaignJob.belongsTo(m.Campaign, { foreignKey: 'campaignId', as: 'campaign' });
  return models;
}
