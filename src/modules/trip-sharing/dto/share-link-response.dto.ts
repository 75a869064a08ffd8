import { ApiProperty } from '@nestjs/swagger';
import type { Assert, Same } from '../../../common/type-checks';
import type { ShareLinkView } from '../shared-ride.view';

/** POST /rides/{ride_id}/share. */
export class ShareLinkResponseDto {
  @ApiProperty({ example: 'q3Vh0x2Yl9cR8mT1bN4kZ7wE6aS5dF0gH2jK9lP3oUi', description: '256 random bits, base64url; shown once, stored only hashed' })
  token!: string;
  @ApiProperty({
    example: 'https://rides.example.com/api/v1/shared-rides/q3Vh0x2Yl9cR8mT1bN4kZ7wE6aS5dF0gH2jK9lP3oUi',
    description: 'PUBLIC_BASE_URL + /api/v1/shared-rides/{token}: open it without logging in',
  })
  url!: string;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'null until the ride is final; then 30 minutes after it' })
  expires_at!: string | null;
}

export type ShareLinkResponseChecks = Assert<Same<ShareLinkResponseDto, ShareLinkView>>;
