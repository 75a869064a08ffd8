import { ApiProperty } from '@nestjs/swagger';
import { IsLatitude, IsLongitude, IsNotEmpty, IsNumber, IsString, MaxLength } from 'class-validator';

const FINITE = { allowNaN: false, allowInfinity: false };

export class LocationDto {
  @ApiProperty({ example: 'Alexanderplatz 1, Berlin' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  address!: string;

  @ApiProperty({ example: 52.5219, minimum: -90, maximum: 90 })
  @IsNumber(FINITE)
  @IsLatitude()
  latitude!: number;

  @ApiProperty({ example: 13.4132, minimum: -180, maximum: 180 })
  @IsNumber(FINITE)
  @IsLongitude()
  longitude!: number;
}
