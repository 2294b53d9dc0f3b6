import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { EmbedService } from "./service.ts";

const EmbedVendorAnswer = z
  .object({
    vendor_name: z.string(),
    programs: z.array(
      z.object({ id: z.number().int(), kind: z.string(), slug: z.string(), name: z.string() }),
    ),
    frame_ancestors: z.array(z.string()),
  })
  .meta({ id: "EmbedVendor" });

/** The vendor report form embed (`/iframe/vendor?vendor={public_key}`, issue 7). */
export const embedRoutes: FastifyPluginAsyncZod<{ embed: EmbedService }> = async (app, { embed }) => {
  app.get(
    "/v1/embed/vendors/:public_key",
    {
      schema: {
        tags: ["embed"],
        summary:
          "A vendor's embeddable report form: its name, active programs and the origins allowed to frame it (404 for an unknown key)",
        params: z.object({ public_key: z.string() }),
        response: { 200: EmbedVendorAnswer },
      },
      config: { access: "public" },
    },
    (request) => embed.getVendor(request.params.public_key),
  );
};
