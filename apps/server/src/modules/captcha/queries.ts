import type { SqlRunner } from "../../db/client.ts";
import type { SolvedCaptcha } from "./messages.ts";

/**
 * Records a spent ALTCHA solution in the caller's transaction; false when it was spent before.
 * Expired rows are pruned on the way.
 */
export async function spendSolution(tx: SqlRunner, solved: SolvedCaptcha): Promise<boolean> {
  await tx.query("delete from captcha_solutions where expires_at < now()");
  const { rows } = await tx.query(
    `insert into captcha_solutions (signature, expires_at) values ($1, $2)
     on conflict (signature) do nothing returning signature`,
    [solved.signature, solved.expiresAt],
  );
  return rows.length > 0;
}
