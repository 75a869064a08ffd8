import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AccessTokenVerifier } from '../../common/auth/access-token-verifier';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { AppConfig } from '../../config/app-config';
import { DriversModule } from '../drivers/drivers.module';
import { UsersModule } from '../users/users.module';
import { WalletsModule } from '../wallets/wallets.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { AuthRateLimitGuard } from './guards/auth-rate-limit.guard';
import { IdentityResolver } from './services/identity-resolver';
import { JwtAccessTokenVerifier } from './services/jwt-access-token.verifier';
import { OtpCodes } from './services/otp-codes';
import { OtpDelivery } from './otp/otp-delivery.service';
import { RegistrationService } from './services/registration.service';
import { SessionService } from './services/session.service';
import { jwtModuleOptions, TokenService } from './services/token.service';

@Module({
  imports: [JwtModule.registerAsync({ inject: [AppConfig], useFactory: jwtModuleOptions }), UsersModule, DriversModule, WalletsModule, RateLimitModule],
  controllers: [AuthController],
  providers: [
    TokenService,
    { provide: AccessTokenVerifier, useClass: JwtAccessTokenVerifier },
    AuthService,
    IdentityResolver,
    OtpCodes,
    OtpDelivery,
    RegistrationService,
    SessionService,
    AuthRateLimitGuard,
  ],
  exports: [AccessTokenVerifier, TokenService],
})
export class AuthModule {}
