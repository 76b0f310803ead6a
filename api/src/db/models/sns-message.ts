import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** SNS delivers at least once: a message id seen before is ignored. */
export class SnsMessage extends Model<InferAttributes<SnsMessage>, InferCreationAttributes<SnsMessage>> {
  declare messageId: string;
  declare receivedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof SnsMessage {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends SnsMessage {};
    return bound.init(
      {
        messageId: { type: DataTypes.TEXT, primaryKey: true },
        receivedAt: { type: DataTypes.DATE, allowNull: false },
      },
      {
        sequelize,
        tableName: 'sns_messages',
        modelName: 'SnsMessage',
        underscored: true,
        timestamps: true,
        createdAt: 'receivedAt',
        updatedAt: false,
      },
    );
  }
}
