import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/**
 * One contact a follow-up goes to (migration 0012), numbered densely by `seq` within the follow-up.
 * Filled by one INSERT ... SELECT over the original's jobs (services/campaigns/repository.ts).
 */
export class FollowUpRecipient extends Model<InferAttributes<FollowUpRecipient>, InferCreationAttributes<FollowUpRecipient>> {
  declare campaignId: number;
  declare seq: number;
  declare contactId: number;

  static initModel(sequelize: Sequelize): typeof FollowUpRecipient {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends FollowUpRecipient {};
    return bound.init(
      {
        campaignId: { type: DataTypes.BIGINT, primaryKey: true },
        seq: { type: DataTypes.INTEGER, primaryKey: true },
        contactId: { type: DataTypes.BIGINT, allowNull: false },
      },
      { sequelize, tableName: 'follow_up_recipients', modelName: 'FollowUpRecipient', underscored: true, timestamps: false },
    );
  }
}
