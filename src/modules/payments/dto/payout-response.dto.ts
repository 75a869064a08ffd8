import { ApiProperty } from '@nestjs/swagger';
import type { Assert, Same } from '../../../common/type-checks';
import type { PayoutPageView, PayoutView } from '../payouts/payouts.service';

export class PayoutResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 25.5, description: 'Major units' }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ enum: ['paid'] }) status!: 'paid';
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) created_at!: string;
}

export class PayoutPageResponseDto {
  @ApiProperty({ type: [PayoutResponseDto], description: 'Newest first' }) items!: PayoutResponseDto[];
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 20 }) limit!: number;
  @ApiProperty({ example: 3 }) total!: number;
}

export class OnboardingLinkResponseDto {
  @ApiProperty({
    example: 'https://connect.stripe.com/setup/e/acct_1Nf4/AbC',
    description: "Stripe's onboarding page for the driver's payout account; open it in a browser",
  })
  url!: string;
}

export type PayoutResponseShapeChecks = [Assert<Same<PayoutResponseDto, PayoutView>>, Assert<Same<PayoutPageResponseDto, PayoutPageView>>];
