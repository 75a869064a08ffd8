import { isNestedTooDeeply, MAX_JSON_DEPTH } from '../../common/http/request-limits';

/**
 * Our clients send `{"type": "ping", ...}`; Nest's ws adapter routes by `event`. Frames that are not
 * JSON objects with a string `type` are routed to the `invalid` handler so the gateway can answer
 * with an error instead of dropping them silently. Depth is checked before parsing, as for HTTP bodies.
 */
export function parseClientFrame(data: string | Buffer | ArrayBuffer | Buffer[]): { event: string; data: unknown } {
  try {
    const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    if (isNestedTooDeeply(text)) return { event: 'invalid', data: { reason: `Message is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` } };
    const frame: unknown = JSON.parse(text);
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
