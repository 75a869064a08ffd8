import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { OperatorAction as Action } from './operator-permissions';

export const OPERATOR_ACTION = 'auth:operator-action';
export const OPEN_TO_OPERATORS = 'auth:open-to-operators';
/** The OpenAPI tag of every admin route. */
export const OPERATORS_TAG = 'operators';

/**
 * Required on every route under /api/v1/admin/ (the app refuses to start without it): the action
 * of OPERATOR_PERMISSIONS the route performs. OperatorGuard lets through only operators whose role
 * the table allows it. Writes also take a `reason` and record it in the audit trail (AuditService).
 */
export const OperatorAction = (action: Action): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(OPERATOR_ACTION, action), ApiTags(OPERATORS_TAG));

/**
 * A route outside /api/v1/admin/ that operator tokens may call as well. Only logout has it: an
 * operator ends their own session like anyone else.
 */
export const OpenToOperators = (): MethodDecorator & ClassDecorator => SetMetadata(OPEN_TO_OPERATORS, true);
