import type { Sequelize } from 'sequelize';
import { Activity } from './activity.js';
import { Audience } from './audience.js';
import { Campaign } from './campaign.js';
import { CampaignJob } from './campaign-job.js';
import { CampaignLink } from './campaign-link.js';
import { Contact } from './contact.js';
import { FollowUpRecipient } from './follow-up-recipient.js';
import { SnsMessage } from './sns-message.js';
import { Suppression } from './suppression.js';
import { SuppressionRemoval } from './suppression-removal.js';
import { Template } from './template.js';

export {
  Activity,
  Audience,
  Campaign,
  CampaignJob,
  CampaignLink,
  Contact,
  FollowUpRecipient,
  SnsMessage,
  Suppression,
  SuppressionRemoval,
  Template,
};
export type { AudienceSource } from './audience.js';
export type { CampaignStatus, FollowUpRecipients } from './campaign.js';
export type { BounceType, CampaignJobStatus } from './campaign-job.js';
export type { SuppressionReason } from './suppression.js';

/**
 * Tables written only by the SQL functions and triggers of the migrations, and read by raw SQL:
 * campaign_job_counts (triggers on campaign_jobs, 0006), send_rate (the rate schedule, 0005),
 * tracking_events (the tracking recorder, 0005), the report's campaign_hourly_counts and
 * campaign_domain_counts (triggers on campaign_jobs and tracking_events, 0016), suppression_counts
 * (triggers on suppressions, 0013) and soft_bounce_streaks (soft_bounce_counted, 0013).
 */
export const SQL_ONLY_TABLES: readonly string[] = [
  'campaign_domain_counts',
  'campaign_hourly_counts',
  'campaign_job_counts',
  'send_rate',
  'tracking_events',
  'suppression_counts',
  'soft_bounce_streaks',
];

export interface Models {
  Audience: typeof Audience;
  Contact: typeof Contact;
  Template: typeof Template;
  Campaign: typeof Campaign;
  CampaignJob: typeof CampaignJob;
  CampaignLink: typeof CampaignLink;
  Suppression: typeof Suppression;
  SuppressionRemoval: typeof SuppressionRemoval;
  SnsMessage: typeof SnsMessage;
  FollowUpRecipient: typeof FollowUpRecipient;
  Activity: typeof Activity;
}

/**
 * Defines the tables the application reads and writes row by row on `sequelize`, with associations.
 * Tables that only SQL functions write (SQL_ONLY_TABLES) have no model.
 */
export function defineModels(sequelize: Sequelize): Models {
  const models: Models = {
    Audience: Audience.initModel(sequelize),
    Contact: Contact.initModel(sequelize),
    Template: Template.initModel(sequelize),
    Campaign: Campaign.initModel(sequelize),
    CampaignJob: CampaignJob.initModel(sequelize),
    CampaignLink: CampaignLink.initModel(sequelize),
    Suppression: Suppression.initModel(sequelize),
    SuppressionRemoval: SuppressionRemoval.initModel(sequelize),
    SnsMessage: SnsMessage.initModel(sequelize),
    FollowUpRecipient: FollowUpRecipient.initModel(sequelize),
    Activity: Activity.initModel(sequelize),
  };
  const m = models;
  m.Audience.hasMany(m.Contact, { foreignKey: 'audienceId', as: 'contacts' });
  m.Contact.belongsTo(m.Audience, { foreignKey: 'audienceId', as: 'audience' });
  m.Campaign.belongsTo(m.Audience, { foreignKey: 'audienceId', as: 'audience' });
  m.Campaign.belongsTo(m.Template, { foreignKey: 'templateId', as: 'template' });
  m.Campaign.hasMany(m.CampaignJob, { foreignKey: 'campaignId', as: 'jobs' });
  m.CampaignJob.belongsTo(m.Campaign, { foreignKey: 'campaignId', as: 'campaign' });
  m.Campaign.hasMany(m.CampaignLink, { foreignKey: 'campaignId', as: 'links' });
  m.CampaignLink.belongsTo(m.Campaign, { foreignKey: 'campaignId', as: 'campaign' });
  return models;
}
