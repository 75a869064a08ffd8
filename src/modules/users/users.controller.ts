import { Body, Controller, Delete, Get, HttpCode, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { MeResponseDto } from './dto/me-response.dto';
import { MessageResponseDto } from './dto/message-response.dto';
import { UpdateProfileDto } from './dto/update-profile.dto';
import { UserResponseDto } from './dto/user-response.dto';
import { UsersService } from './users.service';

/** The signed-in user's own account: read, update, delete (paths under /auth per the spec). */
@ApiTags('auth')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Missing, malformed, expired or wrong-type access token' })
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Account is not active / Account is blocked' })
@Controller('auth')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  @ApiOperation({ summary: 'The signed-in user, with wallet balance and (drivers) the driver record' })
  @ApiOkResponse({ type: MeResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'User not found' })
  me(@CurrentUser() user: AuthenticatedUser): Promise<MeResponseDto> {
    return this.users.getMe(user.id);
  }

  @Put('profile')
  @ApiOperation({
    summary: 'Partial profile update',
    description: 'Only supplied fields change. role, phone and account flags cannot be changed (400 if sent).',
  })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Validation failure, unknown field, or not a PNG/JPEG/WebP picture' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'User not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Email already in use' })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'Profile picture over PROFILE_PICTURE_MAX_BYTES' })
  updateProfile(@CurrentUser() user: AuthenticatedUser, @Body() body: UpdateProfileDto): Promise<UserResponseDto> {
    return this.users.updateProfile(user.id, body);
  }

  @Delete('account')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete the account and its data',
    description:
      'One transaction. Refused (409) while a ride is requested or under way. Rides shared with a driver keep ' +
      "the driver's record; the wallet's ledger is kept without an owner.",
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'User not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The user has a ride in progress' })
  async deleteAccount(@CurrentUser() user: AuthenticatedUser): Promise<MessageResponseDto> {
    await this.users.deleteAccount(user.id);
    return { message: 'Account deleted' };
  }
}
