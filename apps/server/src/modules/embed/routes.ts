import { EmbedVendor } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { publicData } from "../../http/access.ts";
import type { PageReads } from "../../http/page-reads.ts";
import type { EmbedService } from "./service.ts";

/** The vendor report form embed (`/iframe/vendor?vendor={public_key}`, issue 7). */
export const embedRoutes: FastifyPluginAsyncZod<{
  embed: EmbedService;
  /** Reads its pages get in-process too (http/page-reads.ts). */
  reads: PageReads;
}> = async (app, { embed, reads }) => {
  reads.get(
    app,
    "/v1/embed/vendors/:public_key",
    {
      schema: {
        tags: ["embed"],
        summary:
          "A vendor's embeddable report form: its name, active programs and the origins allowed to frame it (404 for an unknown key)",
        params: z.object({ public_key: z.string() }),
        response: { 200: EmbedVendor },
      },
      config: publicData,
    },
    (request) => embed.getVendor(request.params.public_key),
  );
};
