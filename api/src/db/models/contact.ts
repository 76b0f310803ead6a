import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export class Contact extends Model<InferAttributes<Contact>, InferCreationAttributes<Contact>> {
  declare id: CreationOptional<number>;
  declare audienceId: number;
  declare email: string;
  /** Present means invalid (bad address, duplicate...). */
  declare errorMessage: CreationOptional<string | null>;
  /** Header name -> value. */
  declare data: CreationOptional<Record<string, string>>;
  /** Dense numbers given by the import (migration 0002): pages are ranges of them. */
  declare seq: CreationOptional<number | null>;
  declare validSeq: CreationOptional<number | null>;
  declare errorSeq: CreationOptional<number | null>;
  /** The person left this audience in the preference centre (migration 0028): no campaign of it reaches them. */
  declare unsubscribedAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize): typeof Contact {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends Contact {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        audienceId: { type: DataTypes.BIGINT, allowNull: false },
        email: { type: DataTypes.TEXT, allowNull: false },
        errorMessage: { type: DataTypes.TEXT, allowNull: true },
        data: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
        seq: { type: DataTypes.INTEGER, allowNull: true },
        validSeq: { type: DataTypes.INTEGER, allowNull: true },
        errorSeq: { type: DataTypes.INTEGER, allowNull: true },
        unsubscribedAt: { type: DataTypes.DATE, allowNull: true },
      },
      { sequelize, tableName: 'contacts', modelName: 'Contact', underscored: true, timestamps: false },
    );
  }
}
