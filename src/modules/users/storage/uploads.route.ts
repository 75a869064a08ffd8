import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../../common/http/error-body';
import { FileStorage } from '../../../common/storage/file-storage';
import { PICTURE_CONTENT_TYPES, PICTURE_FILE_NAME, PictureType } from './profile-picture.service';

/**
 * Serves stored pictures publicly at GET /uploads/<file>, outside the /api/v1 prefix (profile_picture
 * URLs point here). Only names of the generated form are looked up, so no path can be traversed.
 */
@Injectable()
export class UploadsRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly storage: FileStorage,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/uploads/:file', (request, reply) => this.serve(request, reply));
  }

  private async serve(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const file = (request.params as { file?: string }).file ?? '';
    const match = PICTURE_FILE_NAME.exec(file);
    const bytes = match ? await this.storage.read(file) : undefined;
    if (!match || !bytes) return reply.status(404).send(errorBody(404, 'File not found'));
    return reply
      .header('content-type', PICTURE_CONTENT_TYPES[match[2] as PictureType])
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  }
}
