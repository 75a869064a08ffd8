import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { EmergencyContactsDto } from './dto/emergency-contacts.dto';
import { EmergencyContactsService } from './emergency-contacts.service';

/** The people an SOS texts (CONTRACT §14). */
@ApiTags('safety')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Missing, malformed, expired or wrong-type access token' })
@Controller('users/me/emergency-contacts')
export class EmergencyContactsController {
  constructor(private readonly contacts: EmergencyContactsService) {}

  @Get()
  @ApiOperation({ summary: "The signed-in user's emergency contacts" })
  @ApiOkResponse({ type: EmergencyContactsDto })
  get(@CurrentUser() user: AuthenticatedUser): Promise<EmergencyContactsDto> {
    return this.contacts.get(user.id);
  }

  @Put()
  @ApiOperation({ summary: 'Replace the emergency contacts (at most 3, E.164 phones)' })
  @ApiOkResponse({ type: EmergencyContactsDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'More than 3 contacts, a phone not in E.164, a missing name, an unknown field' })
  put(@CurrentUser() user: AuthenticatedUser, @Body() body: EmergencyContactsDto): Promise<EmergencyContactsDto> {
    return this.contacts.replace(user.id, body.contacts);
  }
}
