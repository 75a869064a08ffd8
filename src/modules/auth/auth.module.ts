import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AccessTokenVerifier } from '../../common/auth/access-token-verifier';
import { UsersModule } from '../users/users.module';
import { JwtAccessTokenVerifier } from './services/jwt-access-token.verifier';
import { jwtModuleOptions, TokenService } from './services/token.service';
import { AppConfig } from '../../config/app-config';

@Module({
  imports: [JwtModule.registerAsync({ inject: [AppConfig], useFactory: jwtModuleOptions }), UsersModule],
  providers: [TokenService, { provide: AccessTokenVerifier, useClass: JwtAccessTokenVerifier }],
  exports: [AccessTokenVerifier, TokenService],
})
export class AuthModule {}
