import { Controller, Get, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentUser, RequiresRegistration, Roles } from '../../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { TakesMultipart } from '../../../common/http/multipart-route';
import { DriverDocumentListResponseDto, DriverDocumentResponseDto, DriverDocumentUploadDto } from '../dto/driver-document-response.dto';
import { readDocumentUpload } from './document-upload';
import { DriverDocumentsService } from './driver-documents.service';

@ApiTags('driver')
@ApiBearerAuth()
@Roles('driver')
@RequiresRegistration()
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Not a registered driver account' })
@Controller('driver/documents')
export class DriverDocumentsController {
  constructor(private readonly documents: DriverDocumentsService) {}

  @Post()
  @TakesMultipart()
  @ApiOperation({
    summary: 'Upload a document for approval',
    description:
      'multipart/form-data with `kind` (license, vehicle_registration, insurance) and `file`: a JPEG, PNG or PDF, ' +
      'judged by its bytes (not its name or declared type), at most 5 MB (5,242,880 bytes). A new file of a kind replaces the old one. ' +
      'Approval needs the license and the vehicle registration.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: DriverDocumentUploadDto })
  @ApiCreatedResponse({ type: DriverDocumentResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A missing or unknown kind, a missing, empty, too large or unsupported file' })
  async upload(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest): Promise<DriverDocumentResponseDto> {
    return this.documents.upload(user.id, await readDocumentUpload(request));
  }

  @Get()
  @ApiOperation({ summary: "The caller's documents, one per kind at most" })
  @ApiOkResponse({ type: DriverDocumentListResponseDto })
  async list(@CurrentUser() user: AuthenticatedUser): Promise<DriverDocumentListResponseDto> {
    return { items: await this.documents.list(user.id) };
  }
}
