import { ProductContact, ProductContactChange } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { signedInCaller } from "../../http/access.ts";
import { idOrNotFound } from "../../http/ids.ts";
import { PRODUCT_NOT_FOUND, type ProductContactService } from "./service.ts";

const tags = ["staff"];
const ProductParams = z.object({ id: z.string() });

/** Staff's vendor contact of a product (issue 19): read with the routes to find one, and set. */
export const productContactRoutes: FastifyPluginAsyncZod<{ contacts: ProductContactService }> = async (
  app,
  { contacts },
) => {
  app.get(
    "/staff/products/:id/contact",
    {
      schema: {
        tags,
        summary: "A product's vendor contact, the routes to find one, and who changed it when",
        params: ProductParams,
        response: { 200: ProductContact },
      },
      config: { access: "staff" },
    },
    (request) => contacts.contactOf(idOrNotFound(request.params.id, PRODUCT_NOT_FOUND)),
  );

  app.put(
    "/staff/products/:id/contact",
    {
      schema: {
        tags,
        summary: "Sets the vendor contact e-mail of a product (blank removes it); the change is audited",
        description:
          "The address the PIN preview of a report goes to when the product runs no program; until a " +
          "product has a program or a contact, its reports cannot be sent to the vendor.",
        params: ProductParams,
        body: ProductContactChange,
        response: { 200: ProductContact },
      },
      config: { access: "staff" },
    },
    (request) =>
      contacts.setContact(
        signedInCaller(request).user.id,
        idOrNotFound(request.params.id, PRODUCT_NOT_FOUND),
        request.body,
      ),
  );
};
