import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { normalizeEmail } from '../../users/contact';
import { UserResponseDto } from '../../users/dto/user-response.dto';
import { isIntegrityViolation } from '../../../common/database/sql-results';
import { RegistrationChanges, UserSignInService } from '../../users/user-sign-in.service';
import { UserError } from '../../users/users.errors';
import { UsersService } from '../../users/users.service';
import { DriversService } from '../../drivers/drivers.service';
import { WalletsService } from '../../wallets/wallets.service';
import { AuthError } from '../auth.errors';
import { RegisterDto } from '../dto/register.dto';
import { SessionResponseDto } from '../dto/session-response.dto';
import { normalizePhone } from './contact-normalizer';
import { TokenService } from './token.service';

/** register: completes the verified user's account (spec "register (checks in this order)"). */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly signIn: UserSignInService,
    private readonly tokens: TokenService,
    private readonly wallets: WalletsService,
    private readonly drivers: DriversService,
    private readonly users: UsersService,
    private readonly config: AppConfig,
  ) {}

  async register(userId: number, body: RegisterDto): Promise<SessionResponseDto> {
    let storedPicture: string | undefined;
    try {
      await this.signIn.runInTransaction(async (manager) => {
        // The row lock makes two concurrent registrations of one user run one after the other (check 1 stops the second).
        const user = await this.signIn.lockForRegistration(userId, manager);
        if (!user) throw new UserError('USER_NOT_FOUND');
        if (user.is_registered) throw new AuthError('ACCOUNT_ALREADY_COMPLETED'); // 1
        if (!user.is_verified) throw new AuthError('VERIFY_BEFORE_REGISTRATION'); // 2
        const email = body.email !== undefined && body.email !== null && body.email.trim() !== '' ? normalizeEmail(body.email) : undefined;
        if (email !== undefined && user.email === null && (await this.signIn.isEmailHeldByOther(email, userId, manager))) {
          throw new UserError('EMAIL_IN_USE'); // 3
        }
        const phone = body.phone !== undefined && body.phone !== null ? normalizePhone(body.phone) : undefined;
        if (phone !== undefined && user.phone !== null && phone !== user.phone) throw new AuthError('PHONE_MISMATCH'); // 4
        if (email !== undefined && user.email !== null && email !== user.email) throw new AuthError('EMAIL_MISMATCH');
        const changes: RegistrationChanges = {
          phone: user.phone === null ? phone : undefined,
          email: user.email === null ? email : undefined,
          firstName: body.first_name ?? undefined, // 5
          lastName: body.last_name ?? undefined,
          deviceToken: body.push_token ?? undefined,
          role: body.role,
        };
        if (body.profile_picture_base64) {
          storedPicture = await this.users.storeProfilePicture(body.profile_picture_base64);
          changes.profilePicture = storedPicture;
        }
        await this.signIn.completeRegistration(userId, changes, manager);
        await this.wallets.ensureWallet(userId, manager); // 6
        if (body.role === 'driver') {
          await this.drivers.createDriverRecord(userId, this.config.driverAutoApprove ? 'approved' : 'pending', manager);
        }
      });
    } catch (err) {
      if (storedPicture) await this.users.discardProfilePicture(storedPicture);
      if (isIntegrityViolation(err)) throw new AuthError('REGISTRATION_CONFLICT'); // 7
      throw err;
    }
    this.users.registrationCompleted(userId);

    // 8: the account is complete; if the session cannot be stored the client logs in instead.
    const issued = this.tokens.issue({ id: userId, role: body.role });
    let row;
    try {
      row = await this.signIn.storeSessionAfterRegistration(userId, issued.refreshTokenHash, issued.family);
    } catch {
      throw new AuthError('TOKEN_ISSUE_CONFLICT');
    }
    if (!row) throw new AuthError('TOKEN_ISSUE_CONFLICT');
    return { ...issued.pair, user: UserResponseDto.from(row) };
  }
}
