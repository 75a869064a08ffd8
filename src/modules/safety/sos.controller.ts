import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentUser, RequiresRegistration } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { RaiseSosDto, RideCheckAnswerDto, SosResponseDto } from './dto/sos.dto';
import { RideCheckMonitor } from './ride-check.monitor';
import { SosService } from './sos.service';

/** The rider's and the driver's safety calls on a live ride (CONTRACT §14). */
@ApiTags('safety')
@ApiBearerAuth()
@RequiresRegistration()
@ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such ride, or the caller is neither its passenger nor its driver' })
@Controller('rides')
export class SosController {
  constructor(
    private readonly sos: SosService,
    private readonly checks: RideCheckMonitor,
  ) {}

  @Post(':ride_id/sos')
  @ApiOperation({
    summary: 'Raise an SOS',
    description:
      'The passenger or the assigned driver, while the ride is accepted, driver_arrived or started. Operators are alerted at once and each ' +
      "of the caller's emergency contacts gets a text with a live trip link. While the ride has an open alert, the call returns it with 200.",
  })
  @ApiCreatedResponse({ type: SosResponseDto, description: 'A new alert' })
  @ApiOkResponse({ type: SosResponseDto, description: "The ride's alert already open" })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A latitude or longitude out of range' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The ride is not accepted, driver_arrived or started' })
  async raise(
    @CurrentUser() user: AuthenticatedUser,
    @Param('ride_id') rideId: string,
    @Body() body: RaiseSosDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SosResponseDto> {
    const { sos, created } = await this.sos.raise(rideId, user, body ?? {});
    reply.status(created ? 201 : 200);
    return sos;
  }

  @Post(':ride_id/ride-check')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Answer a ride check',
    description: '`ok: false` raises an SOS as POST /sos does (201 with it, 200 if one is open); `ok: true` is a 204.',
  })
  @ApiNoContentResponse({ description: 'All is well' })
  @ApiCreatedResponse({ type: SosResponseDto, description: 'Not OK: the SOS raised' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Not OK on a ride that is not accepted, driver_arrived or started' })
  async answer(
    @CurrentUser() user: AuthenticatedUser,
    @Param('ride_id') rideId: string,
    @Body() body: RideCheckAnswerDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SosResponseDto | undefined> {
    if (body.ok) {
      await this.sos.partyTo(rideId, user);
      this.checks.answeredOk(rideId);
      return undefined;
    }
    const { sos, created } = await this.sos.raise(rideId, user, {}, 'ride_check');
    reply.status(created ? 201 : 200);
    return sos;
  }
}
