import { DomainError } from '../../../common/errors/domain.error';
import { normalizeContact, normalizePhone } from './contact-normalizer';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as DomainError).code;
  }
}

describe('contact normalisation (identity rules 1 and 2)', () => {
  it('phones become + and digits only', () => {
    expect(normalizePhone('+1 (555) 123-4567')).toBe('+15551234567');
    expect(normalizePhone('15551234567')).toBe('+15551234567');
    expect(normalizePhone(' 49 30 1234 ')).toBe('+49301234');
  });

  it('blank phone: PHONE_REQUIRED; no digits or too many: INVALID_PHONE', () => {
    expect(codeOf(() => normalizePhone('  '))).toBe('PHONE_REQUIRED');
    expect(codeOf(() => normalizePhone('abc'))).toBe('INVALID_PHONE');
    expect(codeOf(() => normalizePhone('+1234567890123456'))).toBe('INVALID_PHONE');
  });

  it('neither identifier non-blank: EMAIL_OR_PHONE_REQUIRED', () => {
    expect(codeOf(() => normalizeContact({}))).toBe('EMAIL_OR_PHONE_REQUIRED');
    expect(codeOf(() => normalizeContact({ phone: ' ', email: '' }))).toBe('EMAIL_OR_PHONE_REQUIRED');
    expect(codeOf(() => normalizeContact({ phone: null, email: null }))).toBe('EMAIL_OR_PHONE_REQUIRED');
  });

  it('a blank phone beside an e-mail is PHONE_REQUIRED; a blank e-mail beside a phone is ignored', () => {
    expect(codeOf(() => normalizeContact({ phone: '', email: 'a@b.co' }))).toBe('PHONE_REQUIRED');
    expect(normalizeContact({ phone: '15551234567', email: '  ' })).toEqual({ phone: '+15551234567' });
  });

  it('e-mails are trimmed and lower-cased; malformed ones are a validation failure', () => {
    expect(normalizeContact({ email: '  Ada@Example.COM ' })).toEqual({ email: 'ada@example.com' });
    expect(codeOf(() => normalizeContact({ email: 'ada' }))).toBe('VALIDATION_FAILED');
  });
});
