import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class SetDefaultCardDto {
  @ApiProperty({ example: 'pm_1Nf3yq', description: 'A card of the caller’s (GET /payments/cards)' })
  @IsString()
  @Length(1, 255)
  card_id!: string;
}
