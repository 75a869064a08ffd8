import { Check, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { UserRole } from '../../../common/auth/authenticated-user';
import type { OperatorRole } from '../../../common/auth/operator-permissions';
import type { RidePinSetting } from '../../rides/ride-pin-settings.port';
import { RATING_AVERAGE_RULE } from '../../../common/database/rating-average';

@Entity({ name: 'users' })
@Check('users_role_check', `role IN ('passenger', 'driver', 'operator')`)
@Check('users_operator_role_check', `operator_role IN ('support', 'ops', 'finance', 'admin')`)
@Check('users_ride_pin_check', `ride_pin IN ('off', 'always', 'night')`)
@Check('users_emergency_contacts_check', `jsonb_typeof(emergency_contacts) = 'array' AND jsonb_array_length(emergency_contacts) <= 3`)
@Check('users_operator_check', `(role = 'operator') = (operator_role IS NOT NULL)`)
@Check('users_phone_check', `phone IS NULL OR phone ~ '^\\+[0-9]{1,19}$'`)
@Check('users_email_check', `email IS NULL OR email = lower(btrim(email))`)
@Check('users_rating_average_check', RATING_AVERAGE_RULE)
export class UserEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Always `+` and digits. */
  @Column({ type: 'varchar', length: 20, nullable: true, unique: true })
  phone!: string | null;

  /** Always trimmed and lower-cased. */
  @Column({ type: 'varchar', length: 254, nullable: true, unique: true })
  email!: string | null;

  @Column({ name: 'first_name', type: 'varchar', length: 100, nullable: true })
  firstName!: string | null;

  @Column({ name: 'last_name', type: 'varchar', length: 100, nullable: true })
  lastName!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'passenger' })
  role!: UserRole;

  /** What an operator may do (CONTRACT §13); set exactly when role is `operator`. */
  @Column({ name: 'operator_role', type: 'varchar', length: 16, nullable: true })
  operatorRole!: OperatorRole | null;

  /** Whether the rides this passenger's acceptances make carry a start PIN (CONTRACT §14). */
  @Column({ name: 'ride_pin', type: 'varchar', length: 8, default: 'off' })
  ridePin!: RidePinSetting;

  /** At most three `{name, phone}` an SOS texts (CONTRACT §14). */
  @Column({ name: 'emergency_contacts', type: 'jsonb', default: () => "'[]'" })
  emergencyContacts!: Array<{ name: string; phone: string }>;

  @Column({ name: 'is_verified', type: 'boolean', default: false })
  isVerified!: boolean;

  @Column({ name: 'is_phone_verified', type: 'boolean', default: false })
  isPhoneVerified!: boolean;

  @Column({ name: 'is_email_verified', type: 'boolean', default: false })
  isEmailVerified!: boolean;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ name: 'is_blocked', type: 'boolean', default: false })
  isBlocked!: boolean;

  /** The account-completed marker: set by a successful registration, blocks a second one. */
  @Column({ name: 'is_registered', type: 'boolean', default: false })
  isRegistered!: boolean;

  @Column({ name: 'registered_at', type: 'timestamptz', nullable: true })
  registeredAt!: Date | null;

  @Column({ name: 'device_token', type: 'varchar', length: 512, nullable: true })
  deviceToken!: string | null;

  @Column({ name: 'profile_picture', type: 'varchar', length: 512, nullable: true })
  profilePicture!: string | null;

  /** SHA-256 of the current OTP; the code itself is never stored. */
  @Column({ name: 'otp_code_hash', type: 'varchar', length: 128, nullable: true })
  otpCodeHash!: string | null;

  @Column({ name: 'otp_expires_at', type: 'timestamptz', nullable: true })
  otpExpiresAt!: Date | null;

  @Column({ name: 'otp_failed_attempts', type: 'int', default: 0 })
  otpFailedAttempts!: number;

  /** When verify-otp last succeeded; consumed by the next login (CONTRACT.md "Login needs proof"). */
  @Column({ name: 'otp_verified_at', type: 'timestamptz', nullable: true })
  otpVerifiedAt!: Date | null;

  /** SHA-256 of the access token that verify-otp returned: login's bearer must be that token. Cleared with the proof. */
  @Column({ name: 'login_proof_hash', type: 'varchar', length: 128, nullable: true })
  loginProofHash!: string | null;

  /** SHA-256 of the single valid refresh token. */
  @Column({ name: 'refresh_token_hash', type: 'varchar', length: 128, nullable: true })
  refreshTokenHash!: string | null;

  /** The login the stored refresh token descends from (its `fam` claim): a replayed older token of it revokes the session. */
  @Column({ name: 'refresh_token_family', type: 'uuid', nullable: true })
  refreshTokenFamily!: string | null;

  /** Access tokens issued (iat) before this instant are refused: set by logout and refresh-token replay. */
  @Column({ name: 'tokens_valid_after', type: 'timestamptz', nullable: true })
  tokensValidAfter!: Date | null;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt!: Date | null;

  @Column({ name: 'login_count', type: 'int', default: 0 })
  loginCount!: number;

  /** The drivers' average of this user as a passenger (null until rated), kept with its sum and count in one UPDATE. */
  @Column({ type: 'numeric', precision: 3, scale: 2, nullable: true })
  rating!: string | null;

  @Column({ name: 'rating_sum', type: 'int', default: 0 })
  ratingSum!: number;

  @Column({ name: 'ratings_count', type: 'int', default: 0 })
  ratingsCount!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
