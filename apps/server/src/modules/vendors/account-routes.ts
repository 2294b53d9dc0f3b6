import { VendorAccountAnswer } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { signedInCaller } from "../../http/access.ts";
import type { VendorAccountService } from "./account-service.ts";

/** Validated by the shared VendorAccount schema in the service, with the §5 messages. */
const VendorAccountInput = z.record(z.string(), z.unknown()).meta({ id: "VendorAccountFields" });

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
