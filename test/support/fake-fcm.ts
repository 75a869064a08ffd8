import { generateKeyPairSync, KeyObject, randomBytes, verify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { startHttpFake } from './http-fake';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

export interface FcmMessage {
  /** The whole JSON body as received. */
  body: Record<string, unknown>;
  token: string;
  /** The bearer token it carried. */
  accessToken: string;
}

export interface FakeFcm {
  /** FCM_API_BASE */
  url: string;
  /** A service-account JSON (a key pair generated now) whose token_uri is this fake. */
  serviceAccountFile: string;
  projectId: string;
  clientEmail: string;
  tokenUri: string;
  /** Assertions received, with the verdict on each. */
  tokenRequests: Array<{ granted: boolean; problem?: string }>;
  /** Messages FCM accepted (200). */
  delivered: FcmMessage[];
  /** Every messages:send request, whatever the answer. */
  sendRequests: number;
  /** Device tokens FCM answers 404 UNREGISTERED for. */
  unregistered: Set<string>;
  /** Every send is answered with this status (503, 500, 429), or not at all ('hang'). */
  outage: number | 'hang' | undefined;
  /** expires_in of the access tokens handed out. */
  tokenLifetimeSeconds: number;
  /** Drops the connections of the sends left unanswered ('hang'), as a dying FCM front end would; returns how many. */
  cutHanging(): number;
  close(): Promise<void>;
}

/**
 * Local stand-ins for Google's OAuth token endpoint and FCM HTTP v1 that check what they check.
 * The token endpoint takes the JWT-bearer grant only: an RS256 assertion whose signature verifies
 * with the service account's public key, iss = client_email, scope = firebase.messaging,
 * aud = token_uri, a lifetime of at most an hour that has not ended. messages:send takes only an
 * access token the endpoint issued and has not expired, on the project's path, with a message
 * whose `data` holds strings only, as FCM requires.
 */
let serviceAccountKeys: { publicKey: KeyObject; privateKey: KeyObject } | undefined;

export async function startFakeFcm(dir: string): Promise<FakeFcm> {
  // One RSA key per worker: 2048-bit generation is 50-500 ms of CPU, and each fake has its own project.
  serviceAccountKeys ??= generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { publicKey, privateKey } = serviceAccountKeys;
  const projectId = `rides-test-${randomBytes(3).toString('hex')}`;
  const clientEmail = `push@${projectId}.iam.gserviceaccount.com`;
  const issued = new Map<string, number>();
  const server = await startHttpFake((req, res, raw) => handle(req, res, raw));
  const url = server.url;
  const tokenUri = `${url}/token`;
  const serviceAccountFile = join(dir, `${projectId}.json`);
  writeFileSync(
    serviceAccountFile,
    JSON.stringify({
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: clientEmail,
      client_id: '1234567890',
      token_uri: tokenUri,
    }),
  );
  const hanging: ServerResponse[] = [];
  const fake: FakeFcm = {
    url,
    serviceAccountFile,
    projectId,
    clientEmail,
    tokenUri,
    tokenRequests: [],
    delivered: [],
    sendRequests: 0,
    unregistered: new Set(),
    outage: undefined,
    tokenLifetimeSeconds: 3599,
    cutHanging: () => {
      const cut = hanging.length;
      for (const res of hanging.splice(0)) res.destroy();
      return cut;
    },
    close: server.close,
  };

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const path = new URL(req.url ?? '/', url).pathname;
    if (path === '/token' && req.method === 'POST') return grant(req, res, raw);
    if (path === `/v1/projects/${projectId}/messages:send` && req.method === 'POST') return send(req, res, raw);
    json(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
  }

  function grant(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const form = new URLSearchParams(raw);
    const problem =
      req.headers['content-type'] !== 'application/x-www-form-urlencoded'
        ? 'not form-encoded'
        : form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer'
          ? 'wrong grant_type'
          : checkAssertion(form.get('assertion') ?? '', publicKey, clientEmail, tokenUri);
    fake.tokenRequests.push({ granted: !problem, problem });
    if (problem) return json(res, 400, { error: 'invalid_grant', error_description: problem });
    const token = `ya29.${randomBytes(24).toString('base64url')}`;
    issued.set(token, Date.now() + fake.tokenLifetimeSeconds * 1000);
    json(res, 200, { access_token: token, expires_in: fake.tokenLifetimeSeconds, token_type: 'Bearer' });
  }

  function send(req: IncomingMessage, res: ServerResponse, raw: string): void {
    fake.sendRequests += 1;
    const accessToken = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const expires = issued.get(accessToken);
    if (expires === undefined || expires < Date.now()) {
      return json(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    }
    if (fake.outage === 'hang') {
      hanging.push(res);
      return;
    }
    if (fake.outage !== undefined)
      return json(res, fake.outage, { error: { code: fake.outage, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return invalid(res, 'Invalid JSON payload received.');
    }
    const message = body.message as { token?: unknown; data?: Record<string, unknown> } | undefined;
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return invalid(res, 'Content-Type must be application/json');
    if (!message || typeof message.token !== 'string' || message.token === '') return invalid(res, 'Recipient of the message is not set.');
    if (message.data && Object.values(message.data).some((value) => typeof value !== 'string')) {
      return invalid(res, "Invalid value at 'message.data': every value must be a string");
    }
    if (fake.unregistered.has(message.token)) {
      return json(res, 404, {
        error: {
          code: 404,
          message: 'Requested entity was not found.',
          status: 'NOT_FOUND',
          details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
        },
      });
    }
    fake.delivered.push({ body, token: message.token, accessToken });
    json(res, 200, { name: `projects/${projectId}/messages/${randomBytes(8).toString('hex')}` });
  }

  return fake;
}

function checkAssertion(assertion: string, publicKey: KeyObject, clientEmail: string, tokenUri: string): string | undefined {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'assertion is not a JWT';
  const [header, claims] = parts.slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
  if (header!.alg !== 'RS256') return 'alg is not RS256';
  if (!verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2]!, 'base64url'))) return 'Invalid JWT Signature.';
  const now = Math.floor(Date.now() / 1000);
  const { iss, scope, aud, iat, exp } = claims!;
  if (iss !== clientEmail) return 'iss is not the service account';
  if (typeof scope !== 'string' || !scope.split(' ').includes(FCM_SCOPE)) return 'scope lacks firebase.messaging';
  if (aud !== tokenUri) return 'aud is not the token_uri';
  if (typeof iat !== 'number' || typeof exp !== 'number') return 'iat/exp missing';
  if (iat > now + 60 || exp <= now) return 'assertion not valid now';
  if (exp - iat > 3600) return 'assertion lifetime over one hour';
  return undefined;
}

function invalid(res: ServerResponse, message: string): void {
  json(res, 400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
}
