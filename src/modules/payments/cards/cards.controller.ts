import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser, RequiresRegistration, Roles } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { CardListResponseDto, CardSetupResponseDto } from '../dto/card-response.dto';
import { SetDefaultCardDto } from '../dto/set-default-card.dto';
import { CardListView, CardSetupView, CardsService } from './cards.service';

const UNAVAILABLE = 'Card payments are not available (the service has no STRIPE_SECRET_KEY)';
const PROVIDER_DOWN = 'Payment provider unavailable. Please try again (Retry-After says when)';

@ApiTags('payments')
@ApiBearerAuth()
@Roles('passenger')
@RequiresRegistration()
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a registered passenger' })
@ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: PROVIDER_DOWN })
@Controller('payments/cards')
export class CardsController {
  constructor(private readonly cards: CardsService) {}

  @Post('setup')
  @ApiOperation({
    summary: 'Start saving a card: a SetupIntent for Stripe’s SDK',
    description:
      'Creates the caller’s Stripe customer on first use, then a SetupIntent (off-session usage). The app confirms its ' +
      '`client_secret` with Stripe’s mobile SDK (PaymentSheet in setup mode); the card then appears in GET /payments/cards, ' +
      'and becomes the default when the caller has none.',
  })
  @ApiCreatedResponse({ type: CardSetupResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: UNAVAILABLE })
  setup(@CurrentUser() user: AuthenticatedUser): Promise<CardSetupView> {
    return this.cards.setup(user.id);
  }

  @Get()
  @ApiOperation({ summary: 'The caller’s saved cards, read from Stripe (newest first)' })
  @ApiOkResponse({ type: CardListResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: UNAVAILABLE })
  list(@CurrentUser() user: AuthenticatedUser): Promise<CardListView> {
    return this.cards.list(user.id);
  }

  @Put('default')
  @ApiOperation({ summary: 'Choose the card rides are held on' })
  @ApiOkResponse({ type: CardListResponseDto, description: 'The cards, with the new default' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: `card_id missing, or ${UNAVAILABLE}` })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Not a card of the caller’s' })
  setDefault(@CurrentUser() user: AuthenticatedUser, @Body() dto: SetDefaultCardDto): Promise<CardListView> {
    return this.cards.setDefault(user.id, dto.card_id);
  }

  @Delete(':card_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a saved card (detached from the caller’s Stripe customer)' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: UNAVAILABLE })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Not a card of the caller’s' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'A ride in progress holds money on it' })
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('card_id') cardId: string): Promise<void> {
    await this.cards.detach(user.id, cardId);
  }
}
