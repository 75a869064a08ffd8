import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth.decorators';
import { AppConfig } from '../../config/app-config';
import { VehicleCategoryResponseDto } from './dto/vehicle-category-response.dto';
import { VehicleCategoriesService } from './vehicle-categories.service';

@ApiTags('rides')
@Controller('rides')
export class RidesController {
  constructor(
    private readonly categories: VehicleCategoriesService,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('categories')
  @ApiOperation({ summary: 'List the active vehicle categories with their fares' })
  @ApiOkResponse({ type: VehicleCategoryResponseDto, isArray: true })
  async listCategories(): Promise<VehicleCategoryResponseDto[]> {
    const list = await this.categories.listActive();
    return list.map((c) => VehicleCategoryResponseDto.from(c, this.config.currency));
  }
}
