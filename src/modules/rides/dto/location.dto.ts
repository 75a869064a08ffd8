import { ApiProperty } from '@nestjs/swagger';
import {
  IsLatitude,
  IsLongitude,
  IsNotEmpty,
  isNotEmpty,
  IsNumber,
  isNumber,
  IsString,
  isString,
  MaxLength,
  maxLength,
} from 'class-validator';
import { isLatitudeNumber, isLongitudeNumber, registerFastValidation } from '../../../common/http/fast-validation';

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
  latitude: { test: (v) => isNumber(v, FINITE) && isLatitudeNumber(v) },
  longitude: { test: (v) => isNumber(v, FINITE) && isLongitudeNumber(v) },
});
