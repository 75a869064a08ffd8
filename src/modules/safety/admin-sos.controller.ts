import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { OperatorAction } from '../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { IntIdPipe } from '../../common/http/id-param.pipe';
import { ReasonDto } from '../../common/http/reason.dto';
import { AdminSosPageResponseDto, AdminSosQueryDto, AdminSosResponseDto } from './dto/sos.dto';
import { SosService } from './sos.service';

/** Operators' side of SOS alerts (CONTRACT §14, with §13's permissions and audit). */
@Controller('admin/sos')
export class AdminSosController {
  constructor(private readonly sos: SosService) {}

  @Get()
  @OperatorAction('read')
  @ApiOperation({ summary: 'SOS alerts, newest first, optionally open or resolved only; each with the state of its texts to the contacts' })
  @ApiOkResponse({ type: AdminSosPageResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'An unknown status, a bad page' })
  list(@Query() query: AdminSosQueryDto): Promise<AdminSosPageResponseDto> {
    return this.sos.list(query);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @OperatorAction('sos.resolve')
  @ApiOperation({ summary: 'Resolve an open SOS alert', description: 'Recorded in the audit trail with the reason.' })
  @ApiOkResponse({ type: AdminSosResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'SOS alert not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'SOS alert is already resolved' })
  resolve(@CurrentUser() user: AuthenticatedUser, @Param('id', IntIdPipe) id: number, @Body() body: ReasonDto): Promise<AdminSosResponseDto> {
    return this.sos.resolve(id, { actorId: user.id, reason: body.reason });
  }
}
