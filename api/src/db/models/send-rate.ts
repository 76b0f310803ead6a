import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/**
 * The one row of the deployment's send schedule (migration 0005). Only services/sending/send-rate.ts
 * uses it, through the functions of that migration; the model describes the table for completeness.
 */
export class SendRate extends Model<InferAttributes<SendRate>, InferCreationAttributes<SendRate>> {
  declare id: CreationOptional<boolean>;
  /** When the next mail may go. */
  declare nextSlotAt: CreationOptional<Date>;
  /** Fraction of MaxSendRate in use after SES throttled; recovers over a minute. */
  declare slowdown: CreationOptional<number>;
  declare slowedAt: CreationOptional<Date>;
  /** The daily quota left as last read from SES, less what was reserved since; null: unknown or no limit. */
  declare quotaLeft: CreationOptional<number | null>;
  declare reservedTotal: CreationOptional<number>;
  /** When the quota was last read from SES into quotaLeft (migration 0007). */
  declare quotaReadAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize): typeof SendRate {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends SendRate {};
    return bound.init(
      {
        id: { type: DataTypes.BOOLEAN, primaryKey: true, defaultValue: true },
        nextSlotAt: { type: DataTypes.DATE, allowNull: false },
        slowdown: { type: DataTypes.DOUBLE, allowNull: false, defaultValue: 1 },
        slowedAt: { type: DataTypes.DATE, allowNull: false },
        quotaLeft: { type: DataTypes.DOUBLE, allowNull: true },
        reservedTotal: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
        quotaReadAt: { type: DataTypes.DATE, allowNull: true },
      },
      { sequelize, tableName: 'send_rate', modelName: 'SendRate', underscored: true, timestamps: false },
    );
  }
}
