import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';

/** The most emergency contacts a user may keep (CONTRACT §14). */
export const MAX_EMERGENCY_CONTACTS = 3;

/** E.164: a plus, then up to 15 digits, the first not zero. */
export const E164 = /^\+[1-9][0-9]{1,14}$/;

export class EmergencyContactDto {
  @ApiProperty({ example: 'Sam Jones' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @ApiProperty({ example: '+15551234567', description: 'E.164: + and up to 15 digits' })
  @IsString()
  @Matches(E164, { message: 'phone must be an E.164 phone number such as +15551234567' })
  phone!: string;
}

/** PUT /users/me/emergency-contacts: the whole list, replacing the one before. */
export class EmergencyContactsDto {
  @ApiProperty({ type: [EmergencyContactDto], maxItems: MAX_EMERGENCY_CONTACTS, description: 'At most 3; an SOS texts each of them' })
  // class-validator passes a list nested in the list without looking inside it: each entry must be an object
  // (above @IsArray, so that "must be an array" is what a non-list reports first).
  @IsObject({ each: true, message: 'each of contacts must be an object with name and phone' })
  @IsArray()
  @ArrayMaxSize(MAX_EMERGENCY_CONTACTS, { message: `contacts must contain at most ${MAX_EMERGENCY_CONTACTS} contacts` })
  @ValidateNested({ each: true })
  @Type(() => EmergencyContactDto)
  contacts!: EmergencyContactDto[];
}
