import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export type SuppressionReason = 'HARD_BOUNCE' | 'COMPLAINT' | 'UNSUBSCRIBE' | 'SOFT_BOUNCE' | 'MEMBER' | 'ERASED';

/** An address the organisation never mails again. */
export class Suppression extends Model<InferAttributes<Suppression>, InferCreationAttributes<Suppression>> {
  /** The address, lower-cased: the key, so an address is suppressed once whatever its case. */
  declare emailLower: string;
  /** Insertion order (identity): the list's order and its paging key (migration 0013). */
  declare id: CreationOptional<number>;
  declare reason: SuppressionReason;
  declare campaignId: CreationOptional<number | null>;
  /** The member who added the address (reason MEMBER). */
  declare addedByEmail: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  /** An ERASED row's reason before the erasure, if it had one (migration 0022): a report's unsubscribes still count it. */
  declare reasonBeforeErasure: CreationOptional<Exclude<SuppressionReason, 'ERASED'> | null>;

  static initModel(sequelize: Sequelize): typeof Suppression {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends Suppression {};
    return bound.init(
      {
        emailLower: { type: DataTypes.TEXT, primaryKey: true },
        id: { type: DataTypes.BIGINT, allowNull: false, autoIncrement: true },
        reason: { type: DataTypes.TEXT, allowNull: false },
        addedByEmail: { type: DataTypes.TEXT, allowNull: true },
        campaignId: { type: DataTypes.BIGINT, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        reasonBeforeErasure: { type: DataTypes.TEXT, allowNull: true },
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
