import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { OperatorAction } from '../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { IntIdPipe } from '../../common/http/id-param.pipe';
import { ReasonDto } from '../../common/http/reason.dto';
import { AdminUsersService } from './admin-users.service';
import { AdminUserPageResponseDto, AdminUserResponseDto, AdminUsersQueryDto } from './dto/admin-users.dto';
import { UserResponseDto } from './dto/user-response.dto';

@Controller('admin/users')
export class AdminUsersController {
  constructor(private readonly users: AdminUsersService) {}

  @Get()
  @OperatorAction('read')
  @ApiOperation({ summary: 'Find users', description: '`query` matches part of a phone number, e-mail address or name; newest first.' })
  @ApiOkResponse({ type: AdminUserPageResponseDto })
  list(@Query() query: AdminUsersQueryDto): Promise<AdminUserPageResponseDto> {
    return this.users.list(query);
  }

  @Get(':id')
  @OperatorAction('read')
  @ApiOperation({ summary: 'A user with their wallet and driver record' })
  @ApiOkResponse({ type: AdminUserResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'User not found' })
  get(@Param('id', IntIdPipe) id: number): Promise<AdminUserResponseDto> {
    return this.users.get(id);
  }

  @Post(':id/block')
  @HttpCode(200)
  @OperatorAction('users.block')
  @ApiOperation({ summary: 'Block a user', description: 'Their sessions end and their live sockets close (4403) at once; recorded in the audit trail.' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'User not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Operator accounts are managed under /api/v1/admin/operators' })
  block(@CurrentUser() user: AuthenticatedUser, @Param('id', IntIdPipe) id: number, @Body() body: ReasonDto): Promise<UserResponseDto> {
    return this.users.setBlocked(id, true, { actorId: user.id, reason: body.reason });
  }

  @Post(':id/unblock')
  @HttpCode(200)
  @OperatorAction('users.block')
  @ApiOperation({ summary: 'Unblock a user', description: 'Recorded in the audit trail.' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'User not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Operator accounts are managed under /api/v1/admin/operators' })
  unblock(@CurrentUser() user: AuthenticatedUser, @Param('id', IntIdPipe) id: number, @Body() body: ReasonDto): Promise<UserResponseDto> {
    return this.users.setBlocked(id, false, { actorId: user.id, reason: body.reason });
  }
}
