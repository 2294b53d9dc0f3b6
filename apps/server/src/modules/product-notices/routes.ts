import {
  ProductIdParams,
  ProductUserNotice,
  ProductUserNoticeBody,
  ProductUserNoticeList,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { signedInCaller } from "../../http/access.ts";
import { bodyCheckedByService } from "../../http/service-checked-body.ts";
import { programIdOf, vendorOf } from "../programs/rules.ts";
import type { ProductNoticeService } from "./service.ts";

const tags = ["vendor programs"];
const vendorOnly = { access: "vendor" } as const;
/** Validated by the shared ProductUserNoticeBody in the service. */
const NoticeBody = bodyCheckedByService(ProductUserNoticeBody, { id: "ProductUserNoticeFields" });

/** A vendor's notices to its product's users (issue 20, CRA Art. 14(8)); another vendor's program is 404. */
export const productNoticeRoutes: FastifyPluginAsyncZod<{ notices: ProductNoticeService }> = async (
  app,
  { notices },
) => {
  app.get(
    "/products/:id/user-notices",
    {
      schema: {
        tags,
        summary:
          "The notices sent to the program's users, who watches it, and how many can still be sent today",
        params: ProductIdParams,
        response: { 200: ProductUserNoticeList },
      },
      config: vendorOnly,
    },
    (request) =>
      notices.listNotices(vendorOf(signedInCaller(request).user).id, programIdOf(request.params.id)),
  );

  app.post(
    "/products/:id/user-notices",
    {
      schema: {
        tags,
        summary: "E-mails a security notice to every user watching the product (CRA Art. 14(8))",
        description:
          "message: 20 to 5,000 characters of plain text; report_id: optionally one of the program's reports. " +
          "Each watchlist owner watching the product gets one e-mail. 5 notices a program in 24 hours (429).",
        params: ProductIdParams,
        body: NoticeBody,
        response: { 201: ProductUserNotice },
      },
      config: vendorOnly,
    },
    async (request, reply) => {
      const caller = signedInCaller(request);
      const notice = await notices.sendNotice(
        vendorOf(caller.user).id,
        programIdOf(request.params.id),
        caller.user.id,
        request.body,
      );
      return reply.status(201).send(notice);
    },
  );
};
