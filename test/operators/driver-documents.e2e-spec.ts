import { createOperator, createUser, TestOperator, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 1)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const MAX = 5 * 1024 * 1024;

type Field = [name: string, value: string] | [name: string, bytes: Buffer, filename: string, type: string];

/** A real multipart request over HTTP, as an app sends one. */
async function upload(t: TestApp, token: string | undefined, fields: Field[]): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  for (const f of fields) {
    if (f.length === 2) form.append(f[0], f[1]);
    else form.append(f[0], new Blob([new Uint8Array(f[1])], { type: f[3] }), f[2]);
  }
  const res = await fetch(`${t.baseUrl}/api/v1/driver/documents`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const fileField = (bytes: Buffer, filename = 'scan.bin', type = 'application/octet-stream'): Field => ['file', bytes, filename, type];

describe('driver documents (CONTRACT §13)', () => {
  let t: TestApp;
  let driver: TestUser;
  let support: TestOperator;

  beforeAll(async () => {
    t = await startTestApp({ env: { DRIVER_AUTO_APPROVE: 'false' } });
    driver = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    support = await createOperator(t, 'support');
  });
  afterAll(() => t.close());

  it('POST /driver/documents: 201 {id, kind, content_type (from the bytes), size, uploaded_at}; GET lists them', async () => {
    const res = await upload(t, driver.accessToken, [['kind', 'license'], fileField(JPEG, 'licence.pdf', 'application/pdf')]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'license',
      content_type: 'image/jpeg',
      size: JPEG.length,
      uploaded_at: expect.any(String),
    });
    // The file first, the kind after it: the order of the form's parts does not matter.
    const second = await upload(t, driver.accessToken, [fileField(PDF, 'reg.pdf', 'application/pdf'), ['kind', 'vehicle_registration']]);
    expect(second.body).toMatchObject({ kind: 'vehicle_registration', content_type: 'application/pdf', size: PDF.length });
    const list = await t.request({ method: 'GET', url: '/api/v1/driver/documents', token: driver.accessToken });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((d: { kind: string }) => d.kind)).toEqual(['license', 'vehicle_registration']);
  });

  it('a new file of a kind replaces the old: one row, the old bytes gone', async () => {
    const other = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    const first = await upload(t, other.accessToken, [['kind', 'insurance'], fileField(JPEG)]);
    const again = await upload(t, other.accessToken, [['kind', 'insurance'], fileField(PNG)]);
    expect(again.body).toMatchObject({ kind: 'insurance', content_type: 'image/png', size: PNG.length });
    const list = (await t.request({ method: 'GET', url: '/api/v1/driver/documents', token: other.accessToken })).json().items;
    expect(list).toEqual([again.body]);
    const old = await t.request({ method: 'GET', url: `/api/v1/admin/documents/${first.body.id}/file`, token: support.accessToken });
    expect([old.statusCode, old.json().message]).toEqual([404, 'Document not found']);
    const rows = await t.db.query('SELECT count(*)::int AS n FROM driver_documents WHERE driver_id = $1', [other.id]);
    expect(rows[0].n).toBe(1);
  });

  it('the type is judged by the bytes: a GIF named .jpg and declared image/jpeg is 400; so is text', async () => {
    for (const bytes of [Buffer.from('GIF89a....'), Buffer.from('<html><script>alert(1)</script></html>')]) {
      const res = await upload(t, driver.accessToken, [['kind', 'insurance'], fileField(bytes, 'photo.jpg', 'image/jpeg')]);
      expect([res.status, res.body.message, res.body.details]).toEqual([
        400,
        'file must be a JPEG, PNG or PDF',
        [{ field: 'file', message: 'file must be a JPEG, PNG or PDF' }],
      ]);
    }
  });

  it('size: exactly 5 MB is taken; one byte more is 400 "file must be at most 5 MB" (counted while streaming)', async () => {
    const atLimit = Buffer.concat([PDF, Buffer.alloc(MAX - PDF.length, 0x20)]);
    expect((await upload(t, driver.accessToken, [['kind', 'insurance'], fileField(atLimit)])).body).toMatchObject({ size: MAX });
    const over = Buffer.concat([PDF, Buffer.alloc(MAX + 1 - PDF.length, 0x20)]);
    const res = await upload(t, driver.accessToken, [['kind', 'insurance'], fileField(over)]);
    expect([res.status, res.body.message]).toEqual([400, 'file must be at most 5 MB']);
    // 7 MiB: past the JSON body limit too; the client still reads the 400, not a broken pipe.
    const big = await upload(t, driver.accessToken, [['kind', 'insurance'], fileField(Buffer.concat([PDF, Buffer.alloc(7 * 1024 * 1024, 0x20)]))]);
    expect([big.status, big.body.message]).toEqual([400, 'file must be at most 5 MB']);
    const kept = (await t.request({ method: 'GET', url: '/api/v1/driver/documents', token: driver.accessToken })).json().items;
    expect(kept.find((d: { kind: string }) => d.kind === 'insurance').size).toBe(MAX);
  });

  it('bad forms are 400 with a clear message, and nothing is stored', async () => {
    const cases: Array<[Field[], string, string]> = [
      [[fileField(JPEG)], 'kind', 'kind must be one of license, vehicle_registration, insurance'],
      [[['kind', 'passport'], fileField(JPEG)], 'kind', 'kind must be one of license, vehicle_registration, insurance'],
      [[['kind', 'license']], 'file', 'file is required'],
      [[['kind', 'license'], fileField(Buffer.alloc(0))], 'file', 'file is empty'],
      [[['kind', 'license'], ['note', 'hi'], fileField(JPEG)], 'note', 'property note should not exist'],
      [
        [
          ['kind', 'license'],
          ['photo', JPEG, 'a.jpg', 'image/jpeg'],
        ],
        'photo',
        'property photo should not exist',
      ],
      [[['kind', 'license'], fileField(JPEG), fileField(JPEG)], 'file', 'Send exactly one file'],
    ];
    const fresh = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    for (const [fields, field, message] of cases) {
      const res = await upload(t, fresh.accessToken, fields);
      expect([res.status, res.body.details]).toEqual([400, [{ field, message }]]);
    }
    expect((await t.db.query('SELECT count(*)::int AS n FROM driver_documents WHERE driver_id = $1', [fresh.id]))[0].n).toBe(0);
  });

  it('a malformed multipart body is a 400, never a 500', async () => {
    const bodies = ['{}', '--x\r\nContent-Disposition: form-data; name="kind"\r\n\r\nlicense', '--x\r\ngarbage\r\n\r\n--x--\r\n', ''];
    for (const payload of bodies) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/driver/documents',
        token: driver.accessToken,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload,
      });
      expect([JSON.stringify(payload), res.statusCode]).toEqual([JSON.stringify(payload), 400]);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
    }
    const noBoundary = await t.request({
      method: 'POST',
      url: '/api/v1/driver/documents',
      token: driver.accessToken,
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    expect(noBoundary.statusCode).toBe(400);
  });

  it('a JSON body is 400; multipart anywhere else is still 415; only drivers upload (403), with a token (401)', async () => {
    const json = await t.request({ method: 'POST', url: '/api/v1/driver/documents', token: driver.accessToken, payload: { kind: 'license' } });
    expect(json.statusCode).toBe(400);
    const empty = await t.request({ method: 'POST', url: '/api/v1/driver/documents', token: driver.accessToken });
    expect([empty.statusCode, empty.json().message]).toEqual([400, 'Send the document as multipart/form-data with the fields kind and file']);
    const form = new FormData();
    form.append('phone', '+15550001111');
    const elsewhere = await fetch(`${t.baseUrl}/api/v1/auth/send-otp`, { method: 'POST', body: form });
    expect([elsewhere.status, ((await elsewhere.json()) as { message: string }).message]).toEqual([415, 'Unsupported content type; send application/json']);
    const passenger = await createUser(t);
    expect((await upload(t, passenger.accessToken, [['kind', 'license'], fileField(JPEG)])).status).toBe(403);
    expect((await upload(t, support.accessToken, [['kind', 'license'], fileField(JPEG)])).status).toBe(403);
    expect((await upload(t, undefined, [['kind', 'license'], fileField(JPEG)])).status).toBe(401);
  });

  it('operators read a driver’s documents and fetch the bytes (their type, Cache-Control: no-store); no one else can', async () => {
    const list = await t.request({ method: 'GET', url: `/api/v1/admin/drivers/${driver.id}/documents`, token: support.accessToken });
    expect(list.statusCode).toBe(200);
    const license = list.json().items.find((d: { kind: string }) => d.kind === 'license');
    const file = await t.request({ method: 'GET', url: `/api/v1/admin/documents/${license.id}/file`, token: support.accessToken });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['cache-control']).toBe('no-store');
    expect(file.rawPayload.equals(JPEG)).toBe(true);
    for (const token of [driver.accessToken, (await createUser(t)).accessToken]) {
      const res = await t.request({ method: 'GET', url: `/api/v1/admin/documents/${license.id}/file`, token });
      expect([res.statusCode, res.json().message]).toEqual([403, 'Operators only']);
    }
    expect((await t.request({ method: 'GET', url: `/api/v1/admin/documents/${license.id}/file` })).statusCode).toBe(401);
    // Stored apart from profile pictures: the public /uploads route never serves a document.
    const [row] = await t.db.query('SELECT storage_name FROM driver_documents WHERE id = $1', [license.id]);
    expect((await t.request({ method: 'GET', url: `/uploads/${row.storage_name}` })).statusCode).toBe(404);
    for (const id of ['987654321', 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await t.request({ method: 'GET', url: `/api/v1/admin/documents/${id}/file`, token: support.accessToken });
      expect([res.statusCode, res.json().message]).toEqual([404, 'Document not found']);
    }
    const none = await t.request({ method: 'GET', url: '/api/v1/admin/drivers/987654321/documents', token: support.accessToken });
    expect([none.statusCode, none.json().message]).toEqual([404, 'Driver profile not found']);
  });

  it('two uploads of one kind at once: one row remains, holding one of the two files', async () => {
    const racer = await createUser(t, { role: 'driver', driverStatus: 'pending' });
    const [a, b] = await Promise.all([
      upload(t, racer.accessToken, [['kind', 'license'], fileField(JPEG)]),
      upload(t, racer.accessToken, [['kind', 'license'], fileField(PNG)]),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const rows = await t.db.query('SELECT id FROM driver_documents WHERE driver_id = $1', [racer.id]);
    expect(rows).toHaveLength(1);
    expect([a.body.id, b.body.id]).toContain(rows[0].id);
  });
});
