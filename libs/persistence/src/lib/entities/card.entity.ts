import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SetEntity } from './set.entity';

@Entity('cards')
export class CardEntity {
  @PrimaryColumn('uuid') uuid!: string;
  @Column('text') id!: string;
  @Column('text', { name: 'game_id' }) gameId!: string;
  @Column('uuid', { name: 'set_uuid' }) setUuid!: string;
  @ManyToOne(() => SetEntity)
  @JoinColumn({ name: 'set_uuid', referencedColumnName: 'uuid' })
  set?: SetEntity;
  @Column('text') name!: string;
  @Column('text', { nullable: true }) number!: string | null;
  @Column('text', { nullable: true }) rarity!: string | null;
  @Column('text', { nullable: true }) details!: string | null;
  @Column('text', { name: 'vendor_id', nullable: true }) vendorId!: string | null;
  @Column('text', { name: 'openset_id', nullable: true }) opensetId!: string | null;
  @Column('text', { name: 'imagedb_id', nullable: true }) imagedbId!: string | null;
  @Column('boolean') sealed!: boolean;
}
