import { Secret, TOTP } from "otpauth";

/** RFC 6238 defaults every authenticator app understands: SHA-1, 6 digits, 30 seconds. */
function totpFor(secret: string, label = "account", issuer = "Pressguard") {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
}

export function createTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUrl(secret: string, email: string, issuer: string): string {
  return totpFor(secret, email, issuer).toString();
}

/**
 * The time step a code is valid for (one step of clock drift either way), or null. The caller
 * refuses a step not later than the last one accepted, so a code cannot be replayed.
 */
export function acceptedStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpFor(secret);
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return totp.counter({ timestamp: now }) + delta;
}

/** For tests and the enrolment check: the current code of a secret. */
export function currentCode(secret: string, now = Date.now()): string {
  return totpFor(secret).generate({ timestamp: now });
}
