import { VendorAccount, VendorAccountAnswer } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { signedInCaller } from "../../http/access.ts";
import { bodyCheckedByService } from "../../http/service-checked-body.ts";
import type { VendorAccountService } from "./account-service.ts";

/** Validated by the shared VendorAccount schema in the service, with the §5 messages. */
const VendorAccountInput = bodyCheckedByService(VendorAccount, { id: "VendorAccountFields" });

export const vendorAccountRoutes: FastifyPluginAsyncZod<{ accounts: VendorAccountService }> = async (
  app,
  { accounts },
) => {
  const tags = ["vendor account"];
  app.get(
    "/vendor/account",
    {
      schema: { tags, summary: "The caller's vendor account", response: { 200: VendorAccountAnswer } },
      config: { access: "vendor" },
    },
    (request) => {
      return accounts.getAccount(signedInCaller(request).user);
    },
  );

  app.put(
    "/vendor/account",
    {
      schema: {
        tags,
        summary: "Saves the vendor account (owners and admins); the first save completes it",
        body: VendorAccountInput,
        response: { 200: VendorAccountAnswer },
      },
      config: { access: "vendor" },
    },
    (request) => {
      return accounts.updateAccount(signedInCaller(request).user, request.body);
    },
  );
};
