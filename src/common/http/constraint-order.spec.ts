import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import { orderedMessages } from './constraint-order';
import { createValidationPipe, FieldProblem } from './validation.pipe';

const SRC = join(__dirname, '..', '..');
/** How class-validator words absence and the wrong kind of value (bounds and formats read otherwise). */
const MISSING_OR_KIND =
  /^\S+ (should not be empty|should not be null or undefined|must be (a|an) (string|number|integer number|boolean|object|array|UUID|valid ISO 8601 date string)|must be one of |nested property \S+ must be either object or array)/;

/** Every request DTO of the service: each *.dto.ts under src/ is loaded so that its decorators register. */
function requestDtos(): Array<Type<object>> {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.dto.ts') ? [join(dir, e.name)] : [],
    );
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading for the decorators' side effect
  const exported = walk(SRC).flatMap((file) => Object.values(require(file) as Record<string, unknown>));
  return exported.filter(
    (value): value is Type<object> =>
      typeof value === 'function' && getMetadataStorage().getTargetValidationMetadatas(value, '', false, false, undefined).length > 0,
  );
}

describe('the first message about a field names what is wrong with it', () => {
  it("orders a field's messages: absence, then the wrong kind of value, then bounds and formats", () => {
    expect(orderedMessages({ maxLength: 'too long', isString: 'not a string', isNotEmpty: 'empty' })).toEqual(['empty', 'not a string', 'too long']);
    expect(orderedMessages({ max: 'b1', min: 'b2', isInt: 'k', isDefined: 'p' })).toEqual(['p', 'k', 'b1', 'b2']);
    expect(orderedMessages(undefined)).toEqual([]);
  });

  it('for every required field of every request DTO, a missing value is reported first as missing or of the wrong kind, never as out of bounds', async () => {
    const pipe = createValidationPipe({ fastPaths: false });
    const dtos = requestDtos();
    expect(dtos.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    let fields = 0;
    for (const dto of dtos) {
      const failed = await validate(plainToInstance(dto, {}), { forbidUnknownValues: false });
      let details: FieldProblem[] = [];
      try {
        await pipe.transform({}, { type: 'body', metatype: dto, data: undefined });
      } catch (err) {
        details = (err as { details: FieldProblem[] }).details;
      }
      for (const error of failed) {
        fields += 1;
        const first = details.find((d) => d.field === error.property);
        if (!first || !MISSING_OR_KIND.test(first.message)) wrong.push(`${dto.name}.${error.property}: ${first ? `"${first.message}"` : 'not reported'}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(fields).toBeGreaterThan(20);
  });
});
