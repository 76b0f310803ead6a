import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export class CampaignLink extends Model<InferAttributes<CampaignLink>, InferCreationAttributes<CampaignLink>> {
  declare id: CreationOptional<number>;
  declare campaignId: number;
  declare href: string;
  /** Order of the link in the html. */
  declare position: number;
  declare clicks: CreationOptional<number>;
  declare uniqueClicks: CreationOptional<number>;
  /** The link no person sees (migration 0015): only scanners follow it; never in the report. */
  declare hidden: CreationOptional<boolean>;

  static initModel(sequelize: Sequelize): typeof CampaignLink {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends CampaignLink {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        campaignId: { type: DataTypes.BIGINT, allowNull: false },
        href: { type: DataTypes.TEXT, allowNull: false },
        position: { type: DataTypes.INTEGER, allowNull: false },
        clicks: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        uniqueClicks: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        hidden: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      },
      { sequelize, tableName: 'campaign_links', modelName: 'CampaignLink', underscored: true, timestamps: false },
    );
  }
}
