import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('bytea', { name: 'key_hash' }) keyHash!: Buffer;
  @Column('text', { name: 'key_prefix' }) keyPrefix!: string;
  @Column('text') plan!: string;
  @Column('text') label!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  /** Issued without a check (before issue 37): the gateway keeps these digests in memory. */
  @Column('boolean') legacy!: boolean;
}
