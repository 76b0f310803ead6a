import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export type AudienceSource = 'CSV' | 'TEXT' | 'BIG_QUERY' | 'FILTERS';

export class Audience extends Model<InferAttributes<Audience>, InferCreationAttributes<Audience>> {
  declare id: CreationOptional<number>;
  declare name: string;
  /** Contact field names in file order, without the email column. */
  declare headers: CreationOptional<string[]>;
  declare source: CreationOptional<AudienceSource | null>;
  declare numberOfContacts: CreationOptional<number>;
  declare numberOfContactsWithErrors: CreationOptional<number>;
  declare isImporting: CreationOptional<boolean>;
  declare importErrorMessage: CreationOptional<string | null>;
  /** What the last accepted import did with each column of its file (migration 0025; services/imports/mapping.ts). */
  declare importMapping: CreationOptional<unknown>;
  /** When the running import was accepted (the stale-import sweep reads it). */
  declare importStartedAt: CreationOptional<Date | null>;
  /** Set at once on delete; the contacts are purged in the background. */
  declare deletedAt: CreationOptional<Date | null>;
  declare createdByEmail: CreationOptional<string | null>;
  /** The name people see in the preference centre (migration 0028); none: the audience is not shown there. */
  declare publicName: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Audience {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends Audience {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        name: { type: DataTypes.TEXT, allowNull: false },
        headers: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
        source: { type: DataTypes.TEXT, allowNull: true },
        numberOfContacts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        numberOfContactsWithErrors: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        isImporting: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        importErrorMessage: { type: DataTypes.TEXT, allowNull: true },
        importStartedAt: { type: DataTypes.DATE, allowNull: true },
        importMapping: { type: DataTypes.JSONB, allowNull: true },
        deletedAt: { type: DataTypes.DATE, allowNull: true },
        createdByEmail: { type: DataTypes.TEXT, allowNull: true },
        publicName: { type: DataTypes.TEXT, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      // Soft delete is the audience feature's own rule (deleted_at + background purge), not paranoid mode.
      { sequelize, tableName: 'audiences', modelName: 'Audience', underscored: true, timestamps: true },
    );
  }
}
