import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DriversModule } from '../drivers/drivers.module';
import { RidesModule } from '../rides/rides.module';
import { WalletsModule } from '../wallets/wallets.module';
import { UserEntity } from './entities/user.entity';
import { FileStorage } from './storage/file-storage';
import { LocalFileStorage } from './storage/local-file-storage';
import { ProfilePictureService } from './storage/profile-picture.service';
import { UploadsRoute } from './storage/uploads.route';
import { UsersController } from './users.controller';
import { SessionsRepository } from './sign-in/sessions.repository';
import { SignInRepository } from './sign-in/sign-in.repository';
import { UserSignInService } from './user-sign-in.service';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity]), WalletsModule, DriversModule, RidesModule],
  controllers: [UsersController],
  providers: [
    UsersRepository,
    UsersService,
    SignInRepository,
    SessionsRepository,
    UserSignInService,
    ProfilePictureService,
    UploadsRoute,
    { provide: FileStorage, useClass: LocalFileStorage },
  ],
  exports: [UsersService, UserSignInService],
})
export class UsersModule {}
