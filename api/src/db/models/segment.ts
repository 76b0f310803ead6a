import type { Schemas } from '@mailroom/api-client';
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

type SegmentRule = Schemas['SegmentRule'];

/** A saved, named rule over one audience's contacts (migration 0030; services/segments). */
export class Segment extends Model<InferAttributes<Segment>, InferCreationAttributes<Segment>> {
  declare id: CreationOptional<number>;
  declare audienceId: number;
  declare name: string;
  /** The contract's SegmentRule, as checked by services/segments/rule.ts. */
  declare rule: SegmentRule;
  declare createdByEmail: CreationOptional<string | null>;
  declare updatedByEmail: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Segment {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends Segment {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        audienceId: { type: DataTypes.BIGINT, allowNull: false },
        name: { type: DataTypes.TEXT, allowNull: false },
        rule: { type: DataTypes.JSONB, allowNull: false },
        createdByEmail: { type: DataTypes.TEXT, allowNull: true },
        updatedByEmail: { type: DataTypes.TEXT, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'segments', modelName: 'Segment', underscored: true, timestamps: true },
    );
  }
}
