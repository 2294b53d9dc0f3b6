const SNIPPET = `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the request body exactly as received (a string or Buffer, before JSON parsing).
export function verifyPressguard(rawBody, signatureHeader, secret, toleranceSeconds = 300) {
  const parts = Object.fromEntries(signatureHeader.split(",").map((part) => part.split("=")));
  const timestamp = Number(parts.t);
  if (!timestamp || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(\`\${parts.t}.\${rawBody}\`).digest();
  const received = Buffer.from(parts.v1 ?? "", "hex");
  return received.length === expected.length && timingSafeEqual(received, expected);
}`;

/** How a receiver checks the X-Pressguard-Signature header (Stripe-style HMAC-SHA256). */
export function SignatureHelp() {
  return (
    <div className="space-y-3 text-sm text-slate-700">
      <p>
        Every webhook request carries{" "}
        <code className="font-mono">X-Pressguard-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>,
        where <code className="font-mono">v1</code> is the HMAC-SHA256 of{" "}
        <code className="font-mono">"&lt;t&gt;.&lt;raw body&gt;"</code> with your signing secret. Refuse
        requests whose signature does not match or whose timestamp is old, and de-duplicate on{" "}
        <code className="font-mono">X-Pressguard-Event-Id</code>: a retried or redelivered event keeps its id.
        Answer with a 2xx status within 10 seconds; anything else is retried for 24 hours.
      </p>
      <pre className="overflow-x-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100">
        {SNIPPET}
      </pre>
    </div>
  );
}
