import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpFake } from './http-fake';

export interface TwilioRequest {
  to: string | null;
  from: string | null;
  body: string | null;
  /** The status this fake answered. */
  status: number;
}

export interface FakeTwilio {
  /** TWILIO_API_BASE */
  url: string;
  accountSid: string;
  authToken: string;
  from: string;
  /** Every POST that reached the Messages resource, in order (accepted or not). */
  requests: TwilioRequest[];
  /** Messages Twilio would have queued (201). */
  delivered(): TwilioRequest[];
  /** The next answers, one per request, before the checks run: a status (500, 503, 429) or 'hang' (no answer). */
  script: Array<number | 'hang'>;
  /** Every request fails like this until cleared. */
  outage: number | 'hang' | undefined;
  /** Numbers Twilio refuses: 21211 (not a valid phone number) or 21614 (not a mobile number). */
  refusedNumbers: Map<string, 21211 | 21614>;
  close(): Promise<void>;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A local stand-in for Twilio's Messages API that checks a request as Twilio does: the path with the
 * account SID, POST, a form-encoded body, HTTP basic auth with that SID and the auth token, `To` in
 * E.164, `From` one of the account's numbers, a `Body`; and answers in Twilio's shapes (201 with the
 * message resource, errors as `{code, message, more_info, status}`).
 */
export async function startFakeTwilio(): Promise<FakeTwilio> {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const from = '+15005550006';
  const fake: FakeTwilio = {
    url: '',
    close: async () => undefined,
    accountSid,
    authToken,
    from,
    requests: [],
    delivered: () => fake.requests.filter((r) => r.status === 201),
    script: [],
    outage: undefined,
    refusedNumbers: new Map(),
  };

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const path = new URL(req.url ?? '/', 'http://twilio.test').pathname;
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
    if (!match) return error(res, 404, 20404, `The requested resource ${path} was not found`);
    if (req.method !== 'POST') return error(res, 405, 20004, 'Method not allowed');
    if (!authorized(req.headers.authorization, match[1]!)) return error(res, 401, 20003, 'Authenticate');
    const form = (req.headers['content-type'] ?? '').split(';')[0]!.trim() === 'application/x-www-form-urlencoded';
    const fields = form ? new URLSearchParams(raw) : new URLSearchParams();
    const request: TwilioRequest = { to: fields.get('To'), from: fields.get('From'), body: fields.get('Body'), status: 0 };
    fake.requests.push(request);
    const scripted = fake.outage ?? fake.script.shift();
    if (scripted === 'hang') return; // no answer at all; the socket stays open until the server closes
    const answer = (status: number, code: number, message: string): void => {
      request.status = status;
      error(res, status, code, message);
    };
    if (scripted === 429) return answer(429, 20429, 'Too Many Requests');
    if (scripted !== undefined) return answer(scripted, 20500, 'Internal Server Error');
    if (!request.to) return answer(400, 21604, "A 'To' phone number is required.");
    if (!request.from) return answer(400, 21603, "A 'From' phone number is required.");
    if (!request.body) return answer(400, 21602, 'Message body is required.');
    if (!E164.test(request.to)) return answer(400, 21211, `Invalid 'To' Phone Number: ${request.to}`);
    if (request.from !== from)
      return answer(400, 21606, `The From phone number ${request.from} is not a valid, SMS-capable inbound phone number or short code for your account.`);
    const refused = fake.refusedNumbers.get(request.to);
    if (refused === 21211) return answer(400, 21211, `Invalid 'To' Phone Number: ${request.to}`);
    if (refused === 21614) return answer(400, 21614, `'To' number ${request.to} is not a valid mobile number`);
    if (request.body.length > 1600) return answer(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    request.status = 201;
    const sid = `SM${randomBytes(16).toString('hex')}`;
    res.writeHead(201, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        sid,
        account_sid: accountSid,
        to: request.to,
        from: request.from,
        body: request.body,
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        date_created: new Date().toUTCString(),
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      }),
    );
  }

  function authorized(header: string | undefined, sidInPath: string): boolean {
    const match = typeof header === 'string' ? /^Basic (.+)$/.exec(header) : null;
    if (!match) return false;
    const [user, password] = Buffer.from(match[1]!, 'base64').toString('utf8').split(':');
    return user === accountSid && password === authToken && sidInPath === accountSid;
  }

  const server = await startHttpFake(handle);
  fake.url = server.url;
  fake.close = server.close;
  return fake;
}

function error(res: ServerResponse, status: number, code: number, message: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="Twilio API"';
  res.writeHead(status, headers).end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}
