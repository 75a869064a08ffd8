import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { OperatorAction } from '../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { IntIdPipe } from '../../common/http/id-param.pipe';
import { ReasonDto } from '../../common/http/reason.dto';
import { DriverDocumentsService } from './documents/driver-documents.service';
import type { DriverProfileView } from './driver-profile.view';
import { DriverDecision, DriversService } from './drivers.service';
import { AdminDriverPageResponseDto, AdminDriversQueryDto } from './dto/admin-drivers.dto';
import { DriverDocumentListResponseDto } from './dto/driver-document-response.dto';
import { DriverProfileResponseDto } from './dto/driver-response.dto';

const NOT_FOUND = { type: ErrorResponseDto, description: 'Driver profile not found' };

@Controller('admin')
export class AdminDriversController {
  constructor(
    private readonly drivers: DriversService,
    private readonly documents: DriverDocumentsService,
  ) {}

  @Get('drivers')
  @OperatorAction('read')
  @ApiOperation({ summary: 'Driver records, newest first', description: '`status=pending`: the drivers waiting for a decision.' })
  @ApiOkResponse({ type: AdminDriverPageResponseDto })
  async list(@Query() query: AdminDriversQueryDto): Promise<AdminDriverPageResponseDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { items, total } = await this.drivers.listPage(query.status, page, limit);
    return { items, page, limit, total };
  }

  @Get('drivers/:id/documents')
  @OperatorAction('read')
  @ApiOperation({ summary: "A driver's documents (the bytes: GET /admin/documents/{id}/file)" })
  @ApiOkResponse({ type: DriverDocumentListResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async documentsOf(@Param('id', IntIdPipe) id: number): Promise<DriverDocumentListResponseDto> {
    return { items: await this.documents.listOfDriver(id) };
  }

  @Get('documents/:id/file')
  @OperatorAction('read')
  @Header('cache-control', 'no-store')
  @ApiOperation({ summary: "A document's bytes", description: 'Served to operators only, with its type found from the bytes, never cached.' })
  @ApiOkResponse({
    description: 'The file',
    content: Object.fromEntries(['image/jpeg', 'image/png', 'application/pdf'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Document not found' })
  async file(@Param('id') id: string): Promise<StreamableFile> {
    const { bytes, contentType } = await this.documents.file(id);
    return new StreamableFile(bytes, { type: contentType, length: bytes.length, disposition: 'inline' });
  }

  @Post('drivers/:id/approve')
  @HttpCode(200)
  @OperatorAction('drivers.manage')
  @ApiOperation({ summary: 'Approve a driver', description: 'Needs the license and the vehicle registration on file, unless DRIVER_AUTO_APPROVE is on.' })
  @ApiOkResponse({ type: DriverProfileResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Documents missing: license, vehicle_registration (naming those missing)' })
  approve(@CurrentUser() user: AuthenticatedUser, @Param('id', IntIdPipe) id: number, @Body() body: ReasonDto): Promise<DriverProfileView> {
    return this.decide(id, 'approve', user, body);
  }

  @Post('drivers/:id/reject')
  @HttpCode(200)
  @OperatorAction('drivers.manage')
  @ApiOperation({ summary: 'Reject a driver (takes them offline)' })
  @ApiOkResponse({ type: DriverProfileResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  reject(@CurrentUser() user: AuthenticatedUser, @Param('id', IntIdPipe) id: number, @Body() body: ReasonDto): Promise<DriverProfileView> {
    return this.decide(id, 'reject', user, body);
  }

  @Post('drivers/:id/suspend')
  @HttpCode(200)
  @OperatorAction('drivers.manage')
  @ApiOperation({ summary: 'Suspend a driver (takes them offline)' })
  @ApiOkResponse({ type: DriverProfileResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  suspend(@CurrentUser() user: AuthenticatedUser, @Param('id', IntIdPipe) id: number, @Body() body: ReasonDto): Promise<DriverProfileView> {
    return this.decide(id, 'suspend', user, body);
  }

  @Post('drivers/:id/reinstate')
  @HttpCode(200)
  @OperatorAction('drivers.manage')
  @ApiOperation({ summary: 'Lift a suspension (the driver is approved again)' })
  @ApiOkResponse({ type: DriverProfileResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Only a suspended driver can be reinstated' })
  reinstate(@CurrentUser() user: AuthenticatedUser, @Param('id', IntIdPipe) id: number, @Body() body: ReasonDto): Promise<DriverProfileView> {
    return this.decide(id, 'reinstate', user, body);
  }

  private async decide(id: number, decision: DriverDecision, user: AuthenticatedUser, body: ReasonDto): Promise<DriverProfileView> {
    return this.drivers.toJson(await this.drivers.decide(id, decision, { actorId: user.id, reason: body.reason }));
  }
}
