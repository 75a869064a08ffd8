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
