import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { AdminPromoCodesController } from './promos/admin-promo-codes.controller';
import { VehicleCategoriesRepository } from './vehicle-categories.repository';
import { VehicleCategoriesService } from './vehicle-categories.service';
import { PromoCodeEntity } from './entities/promo-code.entity';
import { VehicleCategoryEntity } from './entities/vehicle-category.entity';
import { FareEstimatesService } from './fares/fare-estimates.service';
import { GreatCircleRoutingProvider, RoutingProvider } from './fares/routing.provider';
import { PricingService } from './pricing.service';
import { PromoCodesRepository } from './promos/promo-codes.repository';
import { PromoCodesService } from './promos/promo-codes.service';
import { SurgeService } from './surge/surge.service';

/**
 * Pricing: vehicle categories (cached, reloaded on `vehicle_categories.changed`), routing, the fare
 * calculator, estimates, surge, promo codes, the request rules. It owns (alone writes) the
 * `vehicle_categories` and `promo_codes` tables and sits below rides in the layers: rides' booking and
 * its categories and estimate endpoints reach it through PricingService, the drivers module the
 * categories through VehicleCategoriesService. Surge reads live demand and supply through the two
 * ports of surge-signals.port.ts, which the composition root binds.
 */
@Module({
  imports: [TypeOrmModule.forFeature([VehicleCategoryEntity, PromoCodeEntity]), AuditModule],
  controllers: [AdminPromoCodesController],
  providers: [
    VehicleCategoriesRepository,
    VehicleCategoriesService,
    { provide: RoutingProvider, useClass: GreatCircleRoutingProvider },
    PromoCodesRepository,
    PromoCodesService,
    SurgeService,
    FareEstimatesService,
    PricingService,
  ],
  exports: [PricingService, VehicleCategoriesService],
})
export class PricingModule {}
