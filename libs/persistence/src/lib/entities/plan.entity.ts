import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('plans')
export class PlanEntity {
  @PrimaryColumn('text') name!: string;
  @Column('integer', { name: 'per_minute' }) perMinute!: number;
  @Column('integer', { name: 'per_day' }) perDay!: number;
  @Column('integer', { name: 'per_month' }) perMonth!: number;
  @Column('integer', { name: 'max_limit' }) maxLimit!: number;
  @Column('integer', { name: 'max_batch' }) maxBatch!: number;
}
