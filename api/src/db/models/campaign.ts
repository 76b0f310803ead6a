import type { Schemas } from '@mailroom/api-client';
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

type SegmentRule = Schemas['SegmentRule'];

export type CampaignStatus = 'DRAFT' | 'SCHEDULED' | 'AWAITING_APPROVAL' | 'SENDING' | 'SENT' | 'ERROR';
/** Whom a follow-up goes to: the original's contacts who did not open it, or did not click (migration 0012). */
export type FollowUpRecipients = 'NOT_OPENED' | 'NOT_CLICKED';

export class Campaign extends Model<InferAttributes<Campaign>, InferCreationAttributes<Campaign>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare status: CreationOptional<CampaignStatus>;
  declare audienceId: CreationOptional<number | null>;
  declare templateId: CreationOptional<number | null>;
  declare fromName: CreationOptional<string | null>;
  declare fromEmail: CreationOptional<string | null>;
  declare subject: CreationOptional<string | null>;
  declare previewText: CreationOptional<string | null>;
  /** Snapshot of the template html taken at send time. */
  declare html: CreationOptional<string | null>;
  declare plainText: CreationOptional<string | null>;
  declare errorMessage: CreationOptional<string | null>;
  declare deliveryDate: CreationOptional<Date | null>;
  /** When a SCHEDULED campaign is to start (kept once it started: planned beside deliveryDate). */
  declare scheduledAt: CreationOptional<Date | null>;
  /** A SENDING campaign waiting for SES's daily quota until then (migration 0031); null when not paused. */
  declare quotaPausedUntil: CreationOptional<Date | null>;
  /** Why it is paused (migration 0035): SES's daily quota or the warm-up's volume for the day. */
  declare pausedFor: CreationOptional<'DAILY_QUOTA' | 'WARM_UP' | null>;
  /** Jobs created for this campaign. */
  declare contactCount: CreationOptional<number>;
  declare jobsSent: CreationOptional<number>;
  declare jobsFailed: CreationOptional<number>;
  declare uniqueOpens: CreationOptional<number>;
  declare uniqueClicks: CreationOptional<number>;
  declare updatedByEmail: CreationOptional<string | null>;
  /** When sending last moved (a batch recorded); not updatedAt, which is "last edited". */
  declare progressAt: CreationOptional<Date | null>;
  /** A follow-up: the campaign it follows (null once that one is deleted), its name then, whom and how many it goes to. */
  declare followUpOf: CreationOptional<number | null>;
  declare followUpName: CreationOptional<string | null>;
  declare followUpRecipients: CreationOptional<FollowUpRecipients | null>;
  declare followUpCount: CreationOptional<number | null>;
  /** The segment of the audience it targets (null: the whole audience); its name and rule as sent, copied at send (migration 0030). */
  declare segmentId: CreationOptional<number | null>;
  declare segmentName: CreationOptional<string | null>;
  declare segmentRule: CreationOptional<SegmentRule | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Campaign {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends Campaign {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        name: { type: DataTypes.TEXT, allowNull: false },
        status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'DRAFT' },
        audienceId: { type: DataTypes.BIGINT, allowNull: true },
        templateId: { type: DataTypes.BIGINT, allowNull: true },
        fromName: { type: DataTypes.TEXT, allowNull: true },
        fromEmail: { type: DataTypes.TEXT, allowNull: true },
        subject: { type: DataTypes.TEXT, allowNull: true },
        previewText: { type: DataTypes.TEXT, allowNull: true },
        html: { type: DataTypes.TEXT, allowNull: true },
        plainText: { type: DataTypes.TEXT, allowNull: true },
        errorMessage: { type: DataTypes.TEXT, allowNull: true },
        deliveryDate: { type: DataTypes.DATE, allowNull: true },
        scheduledAt: { type: DataTypes.DATE, allowNull: true },
        quotaPausedUntil: { type: DataTypes.DATE, allowNull: true },
        pausedFor: { type: DataTypes.TEXT, allowNull: true },
        contactCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        jobsSent: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        jobsFailed: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        uniqueOpens: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        uniqueClicks: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        updatedByEmail: { type: DataTypes.TEXT, allowNull: true },
        progressAt: { type: DataTypes.DATE, allowNull: true },
        followUpOf: { type: DataTypes.BIGINT, allowNull: true },
        followUpName: { type: DataTypes.TEXT, allowNull: true },
        followUpRecipients: { type: DataTypes.TEXT, allowNull: true },
        followUpCount: { type: DataTypes.INTEGER, allowNull: true },
        segmentId: { type: DataTypes.BIGINT, allowNull: true },
        segmentName: { type: DataTypes.TEXT, allowNull: true },
        segmentRule: { type: DataTypes.JSONB, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'campaigns', modelName: 'Campaign', underscored: true, timestamps: true },
    );
  }
}
