import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { CaptchaService } from "./service.ts";

/** The ALTCHA v2 challenge the widget fetches (its `challengeurl`). */
const AltchaChallenge = z
  .object({
    parameters: z.object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      expiresAt: z.number().optional(),
      memoryCost: z.number().optional(),
      parallelism: z.number().optional(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    signature: z.string().optional(),
  })
  .meta({ id: "AltchaChallenge" });

export const captchaRoutes: FastifyPluginAsyncZod<{ captcha: CaptchaService }> = async (app, { captcha }) => {
  app.get(
    "/captcha/challenge",
    {
      schema: {
        tags: ["reports"],
        summary: "A new ALTCHA proof-of-work challenge for the signed-out report form",
        description: "Only where CAPTCHA=altcha; elsewhere 404.",
        response: { 200: AltchaChallenge },
      },
      config: { access: "public" },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return captcha.createChallenge();
    },
  );
};
