import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export class Template extends Model<InferAttributes<Template>, InferCreationAttributes<Template>> {
  declare id: CreationOptional<number>;
  declare name: string;
  /** The email editor's design json. */
  declare design: CreationOptional<Record<string, unknown> | null>;
  declare html: CreationOptional<string | null>;
  declare plainText: CreationOptional<string | null>;
  /** Image (data URL) of the first screen. */
  declare preview: CreationOptional<string | null>;
  declare updatedByEmail: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Template {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends Template {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        name: { type: DataTypes.TEXT, allowNull: false },
        design: { type: DataTypes.JSONB, allowNull: true },
        html: { type: DataTypes.TEXT, allowNull: true },
        plainText: { type: DataTypes.TEXT, allowNull: true },
        preview: { type: DataTypes.TEXT, allowNull: true },
        updatedByEmail: { type: DataTypes.TEXT, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'templates', modelName: 'Template', underscored: true, timestamps: true },
    );
  }
}
