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
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity]), WalletsModule, DriversModule, RidesModule],
  controllers: [UsersController],
  providers: [
    UsersRepository,
    UsersService,
    ProfilePictureService,
    UploadsRoute,
    { provide: FileStorage, useClass: LocalFileStorage },
  ],
  exports: [UsersService, ProfilePictureService],
})
export class UsersModule {}
