import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export type TrackingEventKind = 'OPEN' | 'CLICK';

export class TrackingEvent extends Model<InferAttributes<TrackingEvent>, InferCreationAttributes<TrackingEvent>> {
  declare id: CreationOptional<number>;
  declare campaignId: number;
  declare jobId: number;
  declare kind: TrackingEventKind;
  declare linkId: CreationOptional<number | null>;
  declare userAgent: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof TrackingEvent {
    // init() binds a class to one Sequelize instance; a subclass per instance lets several coexist (tests).
    const bound = class extends TrackingEvent {};
    return bound.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        campaignId: { type: DataTypes.BIGINT, allowNull: false },
        jobId: { type: DataTypes.BIGINT, allowNull: false },
        kind: { type: DataTypes.TEXT, allowNull: false },
        linkId: { type: DataTypes.BIGINT, allowNull: true },
        userAgent: { type: DataTypes.TEXT, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      {
        sequelize,
        tableName: 'tracking_events',
        modelName: 'TrackingEvent',
        underscored: true,
        timestamps: true,
        updatedAt: false,
      },
    );
  }
}
