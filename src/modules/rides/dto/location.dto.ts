import { ApiProperty } from '@nestjs/swagger';
import {
  IsLatitude,
  isLatitude,
  IsLongitude,
  isLongitude,
  IsNotEmpty,
  isNotEmpty,
  IsNumber,
  isNumber,
  IsString,
  isString,
  MaxLength,
  maxLength,
} from 'class-validator';
import { registerFastValidation } from '../../../common/http/fast-validation';

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

// Estimate's hot path: the same rules as the decorators above (see registerFastValidation).
registerFastValidation(LocationDto, {
  address: { test: (v) => isString(v) && isNotEmpty(v) && maxLength(v, 300) },
  latitude: { test: (v) => isNumber(v, FINITE) && isLatitude(v as unknown as string) },
  longitude: { test: (v) => isNumber(v, FINITE) && isLongitude(v as unknown as string) },
});
