import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('variants')
export class VariantEntity {
  @PrimaryColumn('uuid') uuid!: string;
  @Column('text') id!: string;
  @Column('uuid', { name: 'card_uuid' }) cardUuid!: string;
  @Column('text') type!: 'raw' | 'graded';
  @Column('text', { nullable: true }) condition!: string | null;
  @Column('text') printing!: string;
  @Column('text') language!: string;
  @Column('text', { name: 'vendor_sku_id', nullable: true }) vendorSkuId!: string | null;
  @Column('text', { name: 'grading_company', nullable: true }) gradingCompany!: string | null;
  @Column('numeric', { precision: 3, scale: 1, nullable: true }) grade!: string | null;
  @Column('text', { name: 'grade_label', nullable: true }) gradeLabel!: string | null;
  @Column('text', { name: 'grading_qualifier', nullable: true }) gradingQualifier!: string | null;
}
