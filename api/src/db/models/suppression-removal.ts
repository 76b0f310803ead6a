import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { SuppressionReason } from './suppression.js';

/** A suppression a member took off the list: what it was, who removed it and when (migration 0013). */
export class SuppressionRemoval extends Model<InferAttributes<SuppressionRemoval>, InferCreationAttributes<SuppressionRemoval>> {
  declare id: CreationOptional<number>;
  declare emailLower: string;
  declare reason: SuppressionReason;
  declare campaignId: number | null;
  declare suppressedAt: Date;
  declare removedByEmail: string;
  declare removedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof SuppressionRemoval {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends SuppressionRemoval {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        emailLower: { type: DataTypes.TEXT, allowNull: false },
        reason: { type: DataTypes.TEXT, allowNull: false },
        campaignId: { type: DataTypes.BIGINT, allowNull: true },
        suppressedAt: { type: DataTypes.DATE, allowNull: false },
        removedByEmail: { type: DataTypes.TEXT, allowNull: false },
        removedAt: { type: DataTypes.DATE, allowNull: false },
      },
      {
        sequelize,
        tableName: 'suppression_removals',
        modelName: 'SuppressionRemoval',
        underscored: true,
        timestamps: true,
        createdAt: 'removedAt',
        updatedAt: false,
      },
    );
  }
}
