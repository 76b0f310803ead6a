import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export type SuppressionReason = 'HARD_BOUNCE' | 'COMPLAINT' | 'UNSUBSCRIBE';

/** An address the organisation never mails again. */
export class Suppression extends Model<InferAttributes<Suppression>, InferCreationAttributes<Suppression>> {
  /** The address, lower-cased: the key, so an address is suppressed once whatever its case. */
  declare emailLower: string;
  declare reason: SuppressionReason;
  declare campaignId: CreationOptional<number | null>;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Suppression {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends Suppression {};
    return bound.init(
      {
        emailLower: { type: DataTypes.TEXT, primaryKey: true },
        reason: { type: DataTypes.TEXT, allowNull: false },
        campaignId: { type: DataTypes.BIGINT, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      {
        sequelize,
        tableName: 'suppressions',
        modelName: 'Suppression',
        underscored: true,
        timestamps: true,
        updatedAt: false,
      },
    );
  }
}
