import { Mailbox } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../errors.ts";
import type { PageReads } from "../http/page-reads.ts";
import type { Mailer } from "./outbox.ts";

/** The development mailbox (ARCHITECTURE.md): every stored mail, newest first; 404 when switched off. */
export const devMailRoutes: FastifyPluginAsyncZod<{
  mailer: Mailer;
  enabled: boolean;
  /** Reads its pages get in-process too (http/page-reads.ts). */
  reads: PageReads;
}> = async (app, { mailer, enabled, reads }) => {
  reads.get(
    app,
    "/dev/mail",
    {
      schema: {
        tags: ["development"],
        summary: "The development mailbox, newest first (off unless DEV_MAILBOX=on, on a loopback HOST only)",
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(200).default(50),
          /** Only the mail sent to this address. */
          to: z.string().trim().toLowerCase().max(254).optional(),
        }),
        response: { 200: Mailbox },
      },
      config: { access: "public" },
      headers: { "cache-control": "no-store" },
    },
    async (request) => {
      if (!enabled) throw new AppError("not_found");
      return { data: await mailer.listMailbox(request.query.limit, request.query.to) };
    },
  );
};
