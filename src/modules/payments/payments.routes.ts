/**
 * The webhook's route, and where its raw body is kept: Stripe signs the bytes, so the body parser
 * keeps them for this one route (src/bootstrap/create-app.ts) instead of parsing JSON.
 */
export const STRIPE_WEBHOOK_ROUTE = { controller: 'payments/stripe', path: 'webhook', url: '/api/v1/payments/stripe/webhook' } as const;

export const RAW_BODY = Symbol('rawBody');
