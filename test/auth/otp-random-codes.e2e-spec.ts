import { OtpDelivery } from '../../src/modules/auth/otp/otp-delivery.service';
import { startTestApp, TestApp } from '../support/test-app';
import { DEV_CODE, freshPhone, post } from './auth-helpers';

describe('send-otp outside development: random codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    // OTP_DEV_FIXED_CODE is ignored unless NODE_ENV=development.
    t = await startTestApp({ env: { NODE_ENV: 'test', OTP_DEV_FIXED_CODE: DEV_CODE } });
  });
  afterAll(() => t.close());

  it('issues 6 random digits through OtpDelivery, to the phone only; a newer code replaces the older one', async () => {
    const send = jest.spyOn(t.get(OtpDelivery), 'deliver');
    try {
      const phone = freshPhone();
      await post(t, 'send-otp', { phone });
      await post(t, 'send-otp', { phone });
      const [first, second] = send.mock.calls.map(([, code]) => code);
      expect(first).toMatch(/^\d{6}$/);
      expect(second).toMatch(/^\d{6}$/);
      expect(send.mock.calls[0]![0].map((d) => ({ to: d.to, kind: d.sender.kind }))).toEqual([{ to: phone, kind: 'phone' }]);
      if (first !== second) expect((await post(t, 'verify-otp', { phone, otp: first })).json().message).toBe('Invalid OTP');
      const res = await post(t, 'verify-otp', { phone, otp: second });
      expect(res.statusCode).toBe(200);
    } finally {
      send.mockRestore();
    }
  });

  it('codes vary (not the fixed development code)', async () => {
    const send = jest.spyOn(t.get(OtpDelivery), 'deliver');
    try {
      const phone = freshPhone();
      for (let i = 0; i < 5; i += 1) await post(t, 'send-otp', { phone });
      const codes = new Set(send.mock.calls.map(([, code]) => code));
      expect(codes.size).toBeGreaterThan(1);
      expect(codes.has(DEV_CODE)).toBe(false);
    } finally {
      send.mockRestore();
    }
  });
});
