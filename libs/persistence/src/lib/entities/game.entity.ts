import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('games')
export class GameEntity {
  @PrimaryColumn('text') id!: string;
  @Column('text') name!: string;
}
