import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { CurrentUser, RequiresRegistration } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import { RideMessagePageResponseDto, RideMessageResponseDto } from './dto/ride-message-page-response.dto';
import { SendRideMessageDto } from './dto/send-ride-message.dto';
import type { RideMessageView } from './ride-message-view';
import { RideChatService, RideMessagePage } from './ride-chat.service';

@ApiTags('chat')
@ApiBearerAuth()
@RequiresRegistration()
@Controller('rides/:ride_id/messages')
export class RideChatController {
  constructor(private readonly chat: RideChatService) {}

  @Post()
  @ApiOperation({
    summary: 'Send a chat message to the other party of the ride',
    description:
      'By the passenger or the assigned driver while the ride is accepted, driver_arrived or started. The other party ' +
      'receives a `chat_message` event (`data.message`), or a push when the app has no live socket; the sender does not. ' +
      'At most CHAT_MESSAGES_PER_MINUTE (default 30) messages a minute per user.',
  })
  @ApiCreatedResponse({ type: RideMessageResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'text empty after trimming, longer than 1000 characters, or not storable' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or the caller is not its passenger or driver' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The ride is not accepted, driver_arrived or started' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'More than CHAT_MESSAGES_PER_MINUTE messages this minute' })
  send(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Body() dto: SendRideMessageDto): Promise<RideMessageView> {
    return this.chat.send(user, rideId, dto.text);
  }

  @Get()
  @ApiOperation({ summary: "The ride's chat messages, oldest first (its passenger or driver; also after the ride ended)" })
  @ApiOkResponse({ type: RideMessagePageResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or the caller is not its passenger or driver' })
  list(@CurrentUser() user: AuthenticatedUser, @Param('ride_id') rideId: string, @Query() query: PageQueryDto): Promise<RideMessagePage> {
    return this.chat.list(user, rideId, query.page ?? 1, query.limit ?? 20);
  }
}
