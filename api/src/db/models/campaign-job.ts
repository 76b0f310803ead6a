import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export type CampaignJobStatus = 'QUEUED' | 'SENDING' | 'SENT_WAIT_ACK' | 'SENT_SUCCESS' | 'FAILED' | 'UNKNOWN';
export type BounceType = 'HARD' | 'SOFT';

/** One contact in one campaign: the unit of sending, sent at most once (docs/architecture.md, Data; Sending, at most once per job). */
export class CampaignJob extends Model<InferAttributes<CampaignJob>, InferCreationAttributes<CampaignJob>> {
  declare id: CreationOptional<number>;
  declare campaignId: number;
  declare contactId: number;
  declare email: string;
  declare status: CreationOptional<CampaignJobStatus>;
  declare sesMessageId: CreationOptional<string | null>;
  declare attempts: CreationOptional<number>;
  declare errorMessage: CreationOptional<string | null>;
  declare bounceType: CreationOptional<BounceType | null>;
  declare bounceMessage: CreationOptional<string | null>;
  declare bounceTime: CreationOptional<Date | null>;
  declare complaintType: CreationOptional<string | null>;
  declare complaintTime: CreationOptional<Date | null>;
  declare openedAt: CreationOptional<Date | null>;
  declare clickedAt: CreationOptional<Date | null>;
  /** The first open and click a person made (migration 0010); opened_at and clicked_at count machines too. */
  declare humanOpenedAt: CreationOptional<Date | null>;
  declare humanClickedAt: CreationOptional<Date | null>;
  /** When the claim was made or last confirmed by its living worker (the heartbeat the stale sweep reads). */
  declare claimedAt: CreationOptional<Date | null>;
  /** The claim holding the job (a worker's own id for it), for recording or giving it back after an outage. */
  declare claimToken: CreationOptional<string | null>;
  declare sentAt: CreationOptional<Date | null>;
  /** Throttled jobs wait until then. */
  declare notBefore: CreationOptional<Date | null>;
  /** The A/B test variant its mail is (migration 0036), given when the job was made; null without a test. */
  declare variant: CreationOptional<number | null>;
  /** Its slot in its domain's schedule (migrations 0035, 0037), given by the domain's release; null when not released. */
  declare domainSlotAt: CreationOptional<Date | null>;
  /** The capped receiving domain it waits for, held until the domain's release (migration 0037); null otherwise. */
  declare domainHeld: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof CampaignJob {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends CampaignJob {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        campaignId: { type: DataTypes.BIGINT, allowNull: false },
        contactId: { type: DataTypes.BIGINT, allowNull: false },
        email: { type: DataTypes.TEXT, allowNull: false },
        status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'QUEUED' },
        sesMessageId: { type: DataTypes.TEXT, allowNull: true },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        errorMessage: { type: DataTypes.TEXT, allowNull: true },
        bounceType: { type: DataTypes.TEXT, allowNull: true },
        bounceMessage: { type: DataTypes.TEXT, allowNull: true },
        bounceTime: { type: DataTypes.DATE, allowNull: true },
        complaintType: { type: DataTypes.TEXT, allowNull: true },
        complaintTime: { type: DataTypes.DATE, allowNull: true },
        openedAt: { type: DataTypes.DATE, allowNull: true },
        clickedAt: { type: DataTypes.DATE, allowNull: true },
        humanOpenedAt: { type: DataTypes.DATE, allowNull: true },
        humanClickedAt: { type: DataTypes.DATE, allowNull: true },
        claimedAt: { type: DataTypes.DATE, allowNull: true },
        claimToken: { type: DataTypes.UUID, allowNull: true },
        sentAt: { type: DataTypes.DATE, allowNull: true },
        notBefore: { type: DataTypes.DATE, allowNull: true },
        variant: { type: DataTypes.INTEGER, allowNull: true },
        domainSlotAt: { type: DataTypes.DATE, allowNull: true },
        domainHeld: { type: DataTypes.TEXT, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'campaign_jobs', modelName: 'CampaignJob', underscored: true, timestamps: true },
    );
  }
}
