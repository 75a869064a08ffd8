import { ApiProperty } from '@nestjs/swagger';
import { buildMessage, ValidateBy } from 'class-validator';

export const REASON_MIN_CHARACTERS = 3;
export const REASON_MAX_CHARACTERS = 500;
export const REASON_RULE = `reason must be ${REASON_MIN_CHARACTERS} to ${REASON_MAX_CHARACTERS} characters`;

/**
 * Why an operator writes (CONTRACT §13: 3..500 characters, else 400), counted in characters after
 * trimming; stored trimmed in the audit trail. The CLI's --reason goes through the same rule.
 */
export function reasonProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'reason must be a string';
  const length = [...value.trim()].length;
  return length < REASON_MIN_CHARACTERS || length > REASON_MAX_CHARACTERS ? REASON_RULE : undefined;
}

export function IsReason(): PropertyDecorator {
  return ValidateBy({
    name: 'isReason',
    validator: {
      validate: (value: unknown) => reasonProblem(value) === undefined,
      // A missing reason says so first ("must be a string"), as every other required field does.
      defaultMessage: buildMessage((_, args) => reasonProblem(args?.value) ?? REASON_RULE),
    },
  });
}

/** The body of an operator write that needs nothing but its reason. */
export class ReasonDto {
  @ApiProperty({
    example: 'Reported by three passengers for unsafe driving',
    minLength: REASON_MIN_CHARACTERS,
    maxLength: REASON_MAX_CHARACTERS,
    description: 'Why: recorded in the audit trail (trimmed)',
  })
  @IsReason()
  reason!: string;
}
