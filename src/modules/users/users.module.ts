import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { DriversModule } from '../drivers/drivers.module';
import { RidesModule } from '../rides/rides.module';
import { WalletsModule } from '../wallets/wallets.module';
import { UserEntity } from './entities/user.entity';
import { FileStorageModule } from '../../common/storage/file-storage.module';
import { ProfilePictureService } from './storage/profile-picture.service';
import { UploadsRoute } from './storage/uploads.route';
import { AdminOperatorsController } from './admin-operators.controller';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersService } from './admin-users.service';
import { OperatorAccountsRepository } from './operator-accounts.repository';
import { OperatorAccountsService } from './operator-accounts.service';
import { UsersController } from './users.controller';
import { EmergencyContactsController } from './emergency-contacts.controller';
import { EmergencyContactsService } from './emergency-contacts.service';
import { SessionsRepository } from './sign-in/sessions.repository';
import { SignInRepository } from './sign-in/sign-in.repository';
import { UserSignInService } from './user-sign-in.service';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity]), FileStorageModule, AuditModule, WalletsModule, DriversModule, RidesModule],
  controllers: [UsersController, EmergencyContactsController, AdminOperatorsController, AdminUsersController],
  providers: [
    UsersRepository,
    UsersService,
    EmergencyContactsService,
    SignInRepository,
    SessionsRepository,
    UserSignInService,
    OperatorAccountsRepository,
    OperatorAccountsService,
    AdminUsersService,
    ProfilePictureService,
    UploadsRoute,
  ],
  exports: [UsersService, UserSignInService, OperatorAccountsService, EmergencyContactsService],
})
export class UsersModule {}
