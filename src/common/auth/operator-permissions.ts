/** The roles an operator account may have (CONTRACT §13). */
export const OPERATOR_ROLES = ['support', 'ops', 'finance', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

const EVERY_OPERATOR = OPERATOR_ROLES;

/**
 * Who may do what under /api/v1/admin/ (CONTRACT §13), the one statement of it: each action and the
 * operator roles allowed it. Every admin route names exactly one action (@OperatorAction); a role
 * not listed for the action gets 403 "Not allowed for your role". Every operator reads everything;
 * support blocks users, cancels rides and resolves SOS alerts; ops does that plus drivers and promo
 * codes; finance refunds and adjusts wallets; admin does all of it plus managing operators.
 */
export const OPERATOR_PERMISSIONS = {
  read: EVERY_OPERATOR,
  'users.block': ['support', 'ops', 'admin'],
  'rides.cancel': ['support', 'ops', 'admin'],
  'sos.resolve': ['support', 'ops', 'admin'],
  'drivers.manage': ['ops', 'admin'],
  'promo_codes.write': ['ops', 'admin'],
  'refunds.create': ['finance', 'admin'],
  'wallets.adjust': ['finance', 'admin'],
  'operators.manage': ['admin'],
} as const satisfies Record<string, readonly OperatorRole[]>;

export type OperatorAction = keyof typeof OPERATOR_PERMISSIONS;

export const OPERATOR_ACTIONS = Object.keys(OPERATOR_PERMISSIONS) as OperatorAction[];

export function mayPerform(role: OperatorRole | undefined, action: OperatorAction): boolean {
  return role !== undefined && (OPERATOR_PERMISSIONS[action] as readonly OperatorRole[]).includes(role);
}

export function isOperatorRole(value: unknown): value is OperatorRole {
  return (OPERATOR_ROLES as readonly unknown[]).includes(value);
}
