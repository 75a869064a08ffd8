import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { OperatorAction } from '../../common/auth/operator-action.decorator';
import { AuditService } from './audit.service';
import { AuditPageResponseDto } from './dto/audit-entry-response.dto';
import { AuditQueryDto } from './dto/audit-query.dto';

@Controller('admin/audit')
export class AdminAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @OperatorAction('read')
  @ApiOperation({
    summary: 'The audit trail: every operator write, newest first',
    description: 'Who (`actor_id`, null for the operator CLI), what, on which target, why. Entries can never be changed or removed.',
  })
  @ApiOkResponse({ type: AuditPageResponseDto })
  list(@Query() query: AuditQueryDto): Promise<AuditPageResponseDto> {
    return this.audit.list(query);
  }
}
