import { buildMessage, ValidateBy } from 'class-validator';

/**
 * class-validator's `maxDecimalPlaces` reads `value.toString().split('.')[1]`, which is undefined for
 * numbers printed in exponent form (1e-7): a TypeError and a 500. Same rule, without the crash.
 */
export function AtMostTwoDecimals(): PropertyDecorator {
  return ValidateBy({
    name: 'atMostTwoDecimals',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'number' || !Number.isFinite(value) || value % 1 === 0) return true; // IsNumber judges these
        const text = String(value);
        return !/e/i.test(text) && (text.split('.')[1] ?? '').length <= 2;
      },
      defaultMessage: buildMessage((prefix) => `${prefix}$property must have at most 2 decimal places`),
    },
  });
}

/** The largest amount a client may name (a bid, an offer, a tip), in major units. */
export const MAX_AMOUNT = 100000;
