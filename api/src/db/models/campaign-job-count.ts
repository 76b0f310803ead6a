import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/**
 * How many jobs of a campaign are in one (status, bounce type, opened, clicked) cell; kept by the
 * triggers of migration 0006 and read by the report (services/reports), never written by the app.
 */
export class CampaignJobCount extends Model<InferAttributes<CampaignJobCount>, InferCreationAttributes<CampaignJobCount>> {
  declare campaignId: number;
  declare status: string;
  /** HARD, SOFT or NONE. */
  declare bounceType: string;
  declare opened: boolean;
  declare clicked: boolean;
  declare jobs: number;

  static initModel(sequelize: Sequelize): typeof CampaignJobCount {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends CampaignJobCount {};
    return bound.init(
      {
        campaignId: { type: DataTypes.BIGINT, primaryKey: true },
        status: { type: DataTypes.TEXT, primaryKey: true },
        bounceType: { type: DataTypes.TEXT, primaryKey: true },
        opened: { type: DataTypes.BOOLEAN, primaryKey: true },
        clicked: { type: DataTypes.BOOLEAN, primaryKey: true },
        jobs: { type: DataTypes.BIGINT, allowNull: false },
      },
      { sequelize, tableName: 'campaign_job_counts', modelName: 'CampaignJobCount', underscored: true, timestamps: false },
    );
  }
}
