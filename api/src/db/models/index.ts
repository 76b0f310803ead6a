import type { Sequelize } from 'sequelize';
import { Audience } from './audience.js';
import { Campaign } from './campaign.js';
import { CampaignJob } from './campaign-job.js';
import { CampaignJobCount } from './campaign-job-count.js';
import { CampaignLink } from './campaign-link.js';
import { Contact } from './contact.js';
import { SendRate } from './send-rate.js';
import { SnsMessage } from './sns-message.js';
import { Suppression } from './suppression.js';
import { Template } from './template.js';
import { TrackingEvent } from './tracking-event.js';

export {
  Audience,
  Campaign,
  CampaignJob,
  CampaignJobCount,
  CampaignLink,
  Contact,
  SendRate,
  SnsMessage,
  Suppression,
  Template,
  TrackingEvent,
};
export type { AudienceSource } from './audience.js';
export type { CampaignStatus } from './campaign.js';
export type { BounceType, CampaignJobStatus } from './campaign-job.js';
export type { SuppressionReason } from './suppression.js';
export type { TrackingEventKind } from './tracking-event.js';

export interface Models {
  Audience: typeof Audience;
  Contact: typeof Contact;
  Template: typeof Template;
  Campaign: typeof Campaign;
  CampaignJob: typeof CampaignJob;
  CampaignJobCount: typeof CampaignJobCount;
  CampaignLink: typeof CampaignLink;
  TrackingEvent: typeof TrackingEvent;
  Suppression: typeof Suppression;
  SnsMessage: typeof SnsMessage;
  SendRate: typeof SendRate;
}

/** Defines every table of the schema (migrations/0001_initial.sql) on `sequelize`, with associations. */
export function defineModels(sequelize: Sequelize): Models {
  const models: Models = {
    Audience: Audience.initModel(sequelize),
    Contact: Contact.initModel(sequelize),
    Template: Template.initModel(sequelize),
    Campaign: Campaign.initModel(sequelize),
    CampaignJob: CampaignJob.initModel(sequelize),
    CampaignJobCount: CampaignJobCount.initModel(sequelize),
    CampaignLink: CampaignLink.initModel(sequelize),
    TrackingEvent: TrackingEvent.initModel(sequelize),
    Suppression: Suppression.initModel(sequelize),
    SnsMessage: SnsMessage.initModel(sequelize),
    SendRate: SendRate.initModel(sequelize),
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
  m.TrackingEvent.belongsTo(m.CampaignJob, { foreignKey: 'jobId', as: 'job' });
  m.TrackingEvent.belongsTo(m.CampaignLink, { foreignKey: 'linkId', as: 'link' });
  return models;
}
