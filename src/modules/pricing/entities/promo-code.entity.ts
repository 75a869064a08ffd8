import { Check, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A promo code: percentage (1..100) or fixed (minor units) off the fare, optionally capped and time-boxed. */
@Entity({ name: 'promo_codes' })
@Check('promo_codes_code_check', `code = upper(code)`)
@Check('promo_codes_discount_type_check', `discount_type IN ('percentage', 'fixed')`)
@Check('promo_codes_discount_value_check', `discount_value > 0`)
@Check('promo_codes_max_discount_minor_check', `max_discount_minor > 0`)
@Check('promo_codes_usage_limit_check', `usage_limit >= 0`)
@Check('promo_codes_check', `discount_type <> 'percentage' OR discount_value <= 100`)
export class PromoCodeEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Always upper-case. */
  @Column({ type: 'varchar', length: 40, unique: true })
  code!: string;

  @Column({ type: 'varchar', length: 300, default: '' })
  description!: string;

  @Column({ name: 'discount_type', type: 'varchar', length: 16 })
  discountType!: 'percentage' | 'fixed';

  /** Percent for 'percentage', minor units for 'fixed'. */
  @Column({ name: 'discount_value', type: 'int' })
  discountValue!: number;

  @Column({ name: 'max_discount_minor', type: 'int', nullable: true })
  maxDiscountMinor!: number | null;

  @Column({ name: 'valid_from', type: 'timestamptz', nullable: true })
  validFrom!: Date | null;

  @Column({ name: 'valid_until', type: 'timestamptz', nullable: true })
  validUntil!: Date | null;

  /** Null: unlimited. */
  @Column({ name: 'usage_limit', type: 'int', nullable: true })
  usageLimit!: number | null;

  @Column({ name: 'used_count', type: 'int', default: 0 })
  usedCount!: number;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
