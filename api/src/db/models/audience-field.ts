import type { FieldType } from '@mailroom/api-client/fields';
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** One typed field of an audience (migration 0021); its rules are in @mailroom/api-client/fields. */
export class AudienceField extends Model<InferAttributes<AudienceField>, InferCreationAttributes<AudienceField>> {
  declare audienceId: number;
  /** The merge tag's name and the key of the value in contacts.data: never changes once made. */
  declare key: string;
  declare label: string;
  declare type: FieldType;
  /** CHOICE only. */
  declare options: CreationOptional<string[] | null>;
  declare required: CreationOptional<boolean>;
  declare editableByPerson: CreationOptional<boolean>;
  declare position: number;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof AudienceField {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends AudienceField {};
    return bound.init(
      {
        audienceId: { type: DataTypes.BIGINT, primaryKey: true },
        key: { type: DataTypes.TEXT, primaryKey: true },
        label: { type: DataTypes.TEXT, allowNull: false },
        type: { type: DataTypes.TEXT, allowNull: false },
        options: { type: DataTypes.JSONB, allowNull: true },
        required: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        editableByPerson: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        position: { type: DataTypes.INTEGER, allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'audience_fields', modelName: 'AudienceField', underscored: true, timestamps: true, updatedAt: false },
    );
  }
}
