import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        if (!config.databaseUrl) throw new Error('DATABASE_URL must be resolved before the app is created');
        return { ...buildDataSourceOptions(config.databaseUrl, config.dbPoolSize), entities: [], autoLoadEntities: true };
      },
    }),
  ],
})
export class DatabaseModule {}
