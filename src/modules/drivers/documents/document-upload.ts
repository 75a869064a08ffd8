import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { CommonError } from '../../../common/errors/common.errors';
import { DOCUMENT_KINDS, type DocumentKind } from '../entities/driver-document.entity';

/** At most 5 MB (5 × 1024 × 1024 bytes) per document (CONTRACT §13), counted while the file streams in. */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

export const DOCUMENT_MESSAGES = {
  notMultipart: 'Send the document as multipart/form-data with the fields kind and file',
  malformed: 'Malformed multipart/form-data body',
  kind: `kind must be one of ${DOCUMENT_KINDS.join(', ')}`,
  fileMissing: 'file is required',
  fileType: 'file must be a JPEG, PNG or PDF',
  fileSize: 'file must be at most 5 MB',
  fileEmpty: 'file is empty',
  oneFile: 'Send exactly one file',
  unknownField: (name: string) => `property ${name} should not exist`,
} as const;

/** A type by the file's first bytes, never by its name or the declared type. */
const SIGNATURES: ReadonlyArray<{ type: string; bytes: readonly number[] }> = [
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
];

export function detectDocumentType(bytes: Buffer): string | undefined {
  return SIGNATURES.find((s) => bytes.length >= s.bytes.length && s.bytes.every((b, i) => bytes[i] === b))?.type;
}

export interface DocumentUpload {
  kind: DocumentKind;
  bytes: Buffer;
  contentType: string;
}

const invalid = (field: string, message: string) => CommonError.validation(field, message);

/**
 * What a multipart failure means to the client (the plugin's own errors are 413s and 406s). Nothing
 * but parsing happens while the parts are read, so anything else thrown there is a malformed body
 * (busboy's "Unexpected end of form", "Malformed part header"), a 400 rather than a 500.
 */
function partsError(err: unknown): CommonError {
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return invalid('file', DOCUMENT_MESSAGES.fileSize);
    case 'FST_FILES_LIMIT':
      return invalid('file', DOCUMENT_MESSAGES.oneFile);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return invalid('body', DOCUMENT_MESSAGES.notMultipart);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return invalid('body', DOCUMENT_MESSAGES.notMultipart);
    default:
      return invalid('body', DOCUMENT_MESSAGES.malformed);
  }
}

/**
 * Reads `kind` and `file` from a multipart request, in either order. The file is counted as it
 * streams: one byte past the limit and the rest is skipped (busboy discards it, so the client
 * still reads the 400). Anything else in the form is refused, as unknown JSON fields are.
 */
export async function readDocumentUpload(request: FastifyRequest): Promise<DocumentUpload> {
  if (!request.isMultipart()) throw invalid('body', DOCUMENT_MESSAGES.notMultipart);
  let kind: string | undefined;
  let file: Buffer | undefined;
  let problem: CommonError | undefined;
  try {
    // fileSize one past the limit: busboy stops there, and the count below tells "over" from "at".
    const parts = request.parts({ limits: { files: 1, fields: 4, parts: 5, fieldSize: 1024, fileSize: DOCUMENT_MAX_BYTES + 1, headerPairs: 50 } });
    for await (const part of parts as AsyncIterable<Multipart>) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          problem ??= invalid(part.fieldname, DOCUMENT_MESSAGES.unknownField(part.fieldname));
          part.file.resume();
          continue;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size <= DOCUMENT_MAX_BYTES) chunks.push(chunk);
        }
        if (size > DOCUMENT_MAX_BYTES) problem ??= invalid('file', DOCUMENT_MESSAGES.fileSize);
        else file = Buffer.concat(chunks, size);
      } else if (part.fieldname === 'kind') {
        kind = String(part.value);
      } else {
        problem ??= invalid(part.fieldname, DOCUMENT_MESSAGES.unknownField(part.fieldname));
      }
    }
  } catch (err) {
    throw err instanceof CommonError ? err : partsError(err);
  }
  if (problem) throw problem;
  if (!(DOCUMENT_KINDS as readonly string[]).includes(kind ?? '')) throw invalid('kind', DOCUMENT_MESSAGES.kind);
  if (!file) throw invalid('file', DOCUMENT_MESSAGES.fileMissing);
  if (file.length === 0) throw invalid('file', DOCUMENT_MESSAGES.fileEmpty);
  const contentType = detectDocumentType(file);
  if (!contentType) throw invalid('file', DOCUMENT_MESSAGES.fileType);
  return { kind: kind as DocumentKind, bytes: file, contentType };
}
