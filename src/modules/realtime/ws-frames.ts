import { jsonShapeMessage, jsonShapeProblem } from '../../common/http/request-limits';

/**
 * Our clients send `{"type": "ping", ...}`; Nest's ws adapter routes by `event`. Frames that are not
 * JSON objects with a string `type` are routed to the `invalid` handler so the gateway can answer
 * with an error instead of dropping them silently. Depth, keys per object, elements per array and values
 * in all are checked on the bytes before decoding, with the limits of HTTP bodies.
 */
export function parseClientFrame(data: string | Buffer | ArrayBuffer | Buffer[]): { event: string; data: unknown } {
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    const problem = jsonShapeProblem(bytes);
    if (problem) return { event: 'invalid', data: { reason: jsonShapeMessage(problem, 'Message') } };
    const frame: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof frame === 'object' && frame !== null && !Array.isArray(frame)) {
      const type = (frame as { type?: unknown }).type;
      if (typeof type === 'string' && type.length > 0 && type.length <= 64) return { event: type, data: frame };
      return { event: 'invalid', data: { reason: 'Message needs a string "type" field' } };
    }
    return { event: 'invalid', data: { reason: 'Message must be a JSON object' } };
  } catch {
    return { event: 'invalid', data: { reason: 'Message is not valid JSON' } };
  }
}

/**
 * A server-to-client text frame made once for all the sockets it goes to: the payload's bytes and the
 * whole WebSocket frame (RFC 6455 §5.2: FIN and the text opcode, unmasked as a server's frames are,
 * then a 7-, 16- or 64-bit length). Written as one buffer per socket, where ws.send builds a header
 * for each socket and writes header and payload as two (bench/fanout-send-cost.js measures both).
 */
export class SharedFrame {
  readonly wire: Buffer;

  constructor(readonly payload: Buffer) {
    const length = payload.length;
    const header = Buffer.allocUnsafe(length < 126 ? 2 : length < 65536 ? 4 : 10);
    header[0] = 0x81;
    if (length < 126) {
      header[1] = length;
    } else if (length < 65536) {
      header[1] = 126;
      header.writeUInt16BE(length, 2);
    } else {
      header[1] = 127;
      header.writeBigUInt64BE(BigInt(length), 2);
    }
    this.wire = Buffer.concat([header, payload]);
  }
}
