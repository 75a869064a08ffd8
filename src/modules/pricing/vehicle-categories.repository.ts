import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { VehicleCategoryEntity } from './entities/vehicle-category.entity';

@Injectable()
export class VehicleCategoriesRepository {
  constructor(@InjectRepository(VehicleCategoryEntity) private readonly repo: Repository<VehicleCategoryEntity>) {}

  findAllOrdered(manager?: EntityManager): Promise<VehicleCategoryEntity[]> {
    const repo = manager ? manager.getRepository(VehicleCategoryEntity) : this.repo;
    return repo.find({ order: { sortOrder: 'ASC', id: 'ASC' } });
  }
}
