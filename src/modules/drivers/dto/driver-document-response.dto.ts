import { ApiProperty } from '@nestjs/swagger';
import { DOCUMENT_KINDS, type DocumentKind } from '../entities/driver-document.entity';

export class DriverDocumentResponseDto {
  @ApiProperty({ format: 'uuid', example: '5a0e7f1c-3b7e-4c55-9d1e-2f9c0a6b8e21' }) id!: string;
  @ApiProperty({ enum: DOCUMENT_KINDS, example: 'license' }) kind!: DocumentKind;
  @ApiProperty({ enum: ['image/jpeg', 'image/png', 'application/pdf'], example: 'image/jpeg', description: 'Found from the bytes' })
  content_type!: string;
  @ApiProperty({ example: 482113, description: 'Bytes' }) size!: number;
  @ApiProperty({ example: '2026-11-22T05:18:38.000Z' }) uploaded_at!: string;
}

export class DriverDocumentListResponseDto {
  @ApiProperty({ type: [DriverDocumentResponseDto] }) items!: DriverDocumentResponseDto[];
}

/** The multipart form of POST /driver/documents, for the OpenAPI document. */
export class DriverDocumentUploadDto {
  @ApiProperty({ enum: DOCUMENT_KINDS }) kind!: DocumentKind;
  @ApiProperty({ type: 'string', format: 'binary', description: 'A JPEG, PNG or PDF (by its bytes), at most 5 MB' }) file!: unknown;
}
