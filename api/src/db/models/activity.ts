import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** One row of the activity log (migration 0014): a member's action on an object. Append-only. */
export class Activity extends Model<InferAttributes<Activity>, InferCreationAttributes<Activity>> {
  declare id: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare memberEmail: string;
  declare kind: string;
  declare objectType: string;
  declare objectId: number | null;
  declare objectName: string | null;
  declare details: CreationOptional<Record<string, unknown>>;

  static initModel(sequelize: Sequelize): typeof Activity {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends Activity {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        memberEmail: { type: DataTypes.TEXT, allowNull: false },
        kind: { type: DataTypes.TEXT, allowNull: false },
        objectType: { type: DataTypes.TEXT, allowNull: false },
        objectId: { type: DataTypes.BIGINT, allowNull: true },
        objectName: { type: DataTypes.TEXT, allowNull: true },
        details: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
      },
      { sequelize, tableName: 'activity', modelName: 'Activity', underscored: true, timestamps: true, updatedAt: false },
    );
  }
}
