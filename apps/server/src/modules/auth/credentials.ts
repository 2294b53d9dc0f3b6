import { createHash, randomBytes } from "node:crypto";
import { hash } from "@node-rs/argon2";

/** The secrets of sign-in: the random tokens, their stored hashes, the password hashes, the account key. */

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (argon2id is the library default algorithm). */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}
