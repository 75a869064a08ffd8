/** Tags in the order of the guide, each with one line for Swagger UI. */
export const TAGS: ReadonlyArray<[string, string]> = [
  ['auth', 'OTP sign-in, registration, tokens, profile and account'],
  ['passenger', "The passenger's active ride and ride history"],
  ['rides', 'Categories, fare estimates, booking, ride details, cancellation and status steps'],
  ['bids', 'Drivers bid on requested rides; the passenger lists and accepts bids'],
  ['chat', 'In-ride messages between the passenger and the assigned driver'],
  ['driver', 'Driver profile, online status, location heartbeat, nearby rides and earnings'],
  ['wallet', "The caller's wallet balance"],
  ['payments', "Saved cards (Stripe SetupIntents) and Stripe's webhook"],
  ['sharing', 'Trip sharing: a passenger hands out a link that shows the ride live without login'],
  ['safety', 'Emergency contacts, SOS during a ride and the answer to a ride check (CONTRACT §14)'],
  ['health', 'Liveness and readiness probes'],
  [
    'operators',
    'For operator accounts only (CONTRACT §13): sign in with send-otp and verify-otp by e-mail, then Authorize with the ' +
      'access token. Each operation names the operator roles allowed it (403 "Not allowed for your role" otherwise); ' +
      'every write takes a `reason` and is recorded in the audit trail. Operator tokens work nowhere else but logout and the live socket.',
  ],
];
