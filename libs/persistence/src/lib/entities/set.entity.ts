import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('sets')
export class SetEntity {
  @PrimaryColumn('uuid') uuid!: string;
  @Column('text') id!: string;
  @Column('text', { name: 'game_id' }) gameId!: string;
  @Column('text') name!: string;
  @Column('text') code!: string;
  @Column('date', { name: 'release_date', nullable: true }) releaseDate!: string | null;
}
