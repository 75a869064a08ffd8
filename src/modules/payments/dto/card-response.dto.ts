import { ApiProperty } from '@nestjs/swagger';
import type { Assert, Same } from '../../../common/type-checks';
import type { CardListView, CardSetupView, CardView } from '../cards/cards.service';

export class CardSetupResponseDto {
  @ApiProperty({
    example: 'seti_1Nf3x2_secret_kM2',
    description: "The SetupIntent's client secret: the app confirms it with Stripe's SDK (PaymentSheet or confirmSetup)",
  })
  client_secret!: string;
  @ApiProperty({ example: 'seti_1Nf3x2' }) setup_intent_id!: string;
}

export class CardResponseDto {
  @ApiProperty({ example: 'pm_1Nf3yq', description: "Stripe's PaymentMethod id" }) id!: string;
  @ApiProperty({ example: 'visa' }) brand!: string;
  @ApiProperty({ example: '4242' }) last4!: string;
  @ApiProperty({ example: 12 }) exp_month!: number;
  @ApiProperty({ example: 2029 }) exp_year!: number;
  @ApiProperty({ description: 'The card rides are held on: the one chosen with PUT /payments/cards/default, else the newest' }) is_default!: boolean;
}

export class CardListResponseDto {
  @ApiProperty({ type: [CardResponseDto] }) items!: CardResponseDto[];
}

export type CardResponseShapeChecks = [
  Assert<Same<CardSetupResponseDto, CardSetupView>>,
  Assert<Same<CardResponseDto, CardView>>,
  Assert<Same<CardListResponseDto, CardListView>>,
];
