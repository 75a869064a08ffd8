import { createUser, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** A user's emergency contacts (CONTRACT §14): at most 3, E.164 phones, 400 otherwise, nothing written. */
describe('emergency contacts', () => {
  let t: TestApp;
  const URL = '/api/v1/users/me/emergency-contacts';
  const put = (user: TestUser | undefined, payload: unknown) => t.request({ method: 'PUT', url: URL, token: user?.accessToken, payload: payload as object });
  const get = (user: TestUser | undefined) => t.request({ method: 'GET', url: URL, token: user?.accessToken });
  const sam = { name: 'Sam Jones', phone: '+15551230001' };
  const kim = { name: 'Kim', phone: '+4915112345678' };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('none at first; PUT replaces the list and answers it, GET reads it back', async () => {
    const user = await createUser(t);
    expect((await get(user)).json()).toEqual({ contacts: [] });
    const res = await put(user, { contacts: [sam, kim] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ contacts: [sam, kim] });
    expect((await get(user)).json()).toEqual({ contacts: [sam, kim] });
    expect((await put(user, { contacts: [kim] })).json()).toEqual({ contacts: [kim] });
    expect((await get(user)).json()).toEqual({ contacts: [kim] });
    expect((await put(user, { contacts: [] })).json()).toEqual({ contacts: [] });
  });

  it('drivers keep contacts too (a driver may raise an SOS)', async () => {
    const driver = await createUser(t, { role: 'driver' });
    expect((await put(driver, { contacts: [sam] })).statusCode).toBe(200);
    expect((await get(driver)).json()).toEqual({ contacts: [sam] });
  });

  it.each([
    ['four contacts', { contacts: [sam, kim, sam, kim] }, 'contacts must contain at most 3 contacts'],
    ['a phone without +', { contacts: [{ name: 'A', phone: '15551230001' }] }, 'phone must be an E.164 phone number such as +15551234567'],
    ['a phone with spaces', { contacts: [{ name: 'A', phone: '+1 555 123 0001' }] }, 'phone must be an E.164 phone number such as +15551234567'],
    ['a phone of 16 digits', { contacts: [{ name: 'A', phone: '+1234567890123456' }] }, 'phone must be an E.164 phone number such as +15551234567'],
    ['a missing name', { contacts: [{ phone: '+15551230001' }] }, 'name'],
    ['an empty name', { contacts: [{ name: '', phone: '+15551230001' }] }, 'name should not be empty'],
    ['no list', {}, 'contacts must be an array'],
    ['a list that is no array', { contacts: 'Sam' }, 'contacts must be an array'],
    ['an unknown field', { contacts: [{ ...sam, email: 'sam@example.com' }] }, 'email'],
    ['a contact that is a list (the fuzzer, seed 42)', { contacts: [[[[]]]] }, 'contacts'],
    ['a contact that is an empty list', { contacts: [[]] }, 'contacts'],
    ['a contact that is a string', { contacts: ['Sam'] }, 'contacts'],
  ])('%s: 400, the list unchanged', async (_what, body, message) => {
    const user = await createUser(t);
    await put(user, { contacts: [sam] });
    const res = await put(user, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect((await get(user)).json()).toEqual({ contacts: [sam] });
  });

  it('needs a signed-in user', async () => {
    expect((await get(undefined)).statusCode).toBe(401);
    expect((await put(undefined, { contacts: [] })).statusCode).toBe(401);
  });
});
