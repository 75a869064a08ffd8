import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { OperatorAction } from '../../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import { CreatePromoCodeDto, PromoCodePageResponseDto, PromoCodeResponseDto, UpdatePromoCodeDto } from './dto/promo-code.dto';
import { PromoCodesService } from './promo-codes.service';

@Controller('admin/promo-codes')
export class AdminPromoCodesController {
  constructor(private readonly promos: PromoCodesService) {}

  @Get()
  @OperatorAction('read')
  @ApiOperation({ summary: 'Every promo code, newest first' })
  @ApiOkResponse({ type: PromoCodePageResponseDto })
  list(@Query() query: PageQueryDto): Promise<PromoCodePageResponseDto> {
    return this.promos.list(query.page ?? 1, query.limit ?? 20);
  }

  @Post()
  @OperatorAction('promo_codes.write')
  @ApiOperation({ summary: 'Create a promo code', description: "The operator CLI's `promo:create` fields. Recorded in the audit trail." })
  @ApiCreatedResponse({ type: PromoCodeResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A field out of its rule' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Promo code … already exists' })
  create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreatePromoCodeDto): Promise<PromoCodeResponseDto> {
    return this.promos.create(body, { actorId: user.id, reason: body.reason });
  }

  @Patch(':code')
  @OperatorAction('promo_codes.write')
  @ApiOperation({
    summary: 'Change a promo code',
    description:
      'Switch it off or on (`active: false`: it no longer discounts estimates or bookings), change its use limit or its end. Recorded in the audit trail.',
  })
  @ApiOkResponse({ type: PromoCodeResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Promo code not found' })
  update(@CurrentUser() user: AuthenticatedUser, @Param('code') code: string, @Body() body: UpdatePromoCodeDto): Promise<PromoCodeResponseDto> {
    const changes = {
      isActive: body.active,
      usageLimit: body.max_uses,
      validUntil: body.valid_until === undefined ? undefined : body.valid_until === null ? null : new Date(body.valid_until),
    };
    return this.promos.update(code, changes, { actorId: user.id, reason: body.reason });
  }
}
