import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { OperatorAction } from '../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { IntIdPipe } from '../../common/http/id-param.pipe';
import { ReasonDto } from '../../common/http/reason.dto';
import { AddOperatorDto } from './dto/add-operator.dto';
import { MessageResponseDto } from './dto/message-response.dto';
import { OperatorListResponseDto, OperatorResponseDto } from './dto/operator-response.dto';
import { OperatorAccountsService } from './operator-accounts.service';

@Controller('admin/operators')
export class AdminOperatorsController {
  constructor(private readonly operators: OperatorAccountsService) {}

  @Post()
  @OperatorAction('operators.manage')
  @ApiOperation({
    summary: 'Add an operator',
    description: 'The new operator signs in with a code sent to the e-mail (send-otp, verify-otp). A pending sign-up holding the address is replaced.',
  })
  @ApiCreatedResponse({ type: OperatorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Email already in use (by a complete account)' })
  async add(@CurrentUser() user: AuthenticatedUser, @Body() body: AddOperatorDto): Promise<OperatorResponseDto> {
    return this.operators.add(body.email, body.operator_role, { actorId: user.id, reason: body.reason });
  }

  @Get()
  @OperatorAction('read')
  @ApiOperation({ summary: 'Every operator account' })
  @ApiOkResponse({ type: OperatorListResponseDto })
  async list(): Promise<OperatorListResponseDto> {
    return { items: await this.operators.list() };
  }

  @Delete(':id')
  @HttpCode(200)
  @OperatorAction('operators.manage')
  @ApiOperation({ summary: 'Remove an operator', description: "Ends the operator's sessions and live sockets at once (4403). Not one's own account." })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Operator not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Operators cannot remove themselves' })
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id', IntIdPipe) id: number, @Body() body: ReasonDto): Promise<MessageResponseDto> {
    await this.operators.remove(id, { actorId: user.id, reason: body.reason });
    return { message: 'Operator removed' };
  }
}
