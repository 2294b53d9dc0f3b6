import { createServer, type Server } from "node:http";

/**
 * What the port answers while the process prepares its database (migrations, the first start's import):
 * 503 with `Retry-After`, a page that says how far the import is and reloads itself, the API's error
 * body under /api. A browser opened on the address meanwhile sees progress instead of "connection
 * refused"; load balancers see the instance as not ready. Closed just before the application listens.
 */
export interface PreparingServer {
  /** The port it listens on (the one asked for, or the one the system chose for port 0). */
  port: number;
  /** Records imported so far and in all. */
  update(done: number, total: number): void;
  /** Tables copied so far and in all, from an earlier install's PGlite directory (decision 037). */
  copying(done: number, total: number): void;
  close(): Promise<void>;
}

const RETRY_AFTER_SECONDS = 5;

/** The listen address is taken: a start-up error with a message for the operator, not a stack. */
export class PortInUseError extends Error {}

export async function startPreparingServer(options: {
  host: string;
  port: number;
}): Promise<PreparingServer> {
  const progress = { done: 0, total: 0, unit: "records imported" };
  const message = () =>
    progress.total > 0
      ? `Pressguard is preparing its database: ${progress.done.toLocaleString("en")} of ${progress.total.toLocaleString("en")} ${progress.unit}.`
      : "Pressguard is preparing its database.";

  const server: Server = createServer((request, response) => {
    const wantsHtml =
      !request.url?.startsWith("/api/") && (request.headers.accept ?? "").includes("text/html");
    response.statusCode = 503;
    response.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("X-Content-Type-Options", "nosniff");
    if (wantsHtml) {
      response.setHeader("Content-Type", "text/html; charset=utf-8");
      response.end(preparingPage(message()));
    } else {
      response.setHeader("Content-Type", "application/json; charset=utf-8");
      response.end(JSON.stringify({ status: "error", message: message() }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new PortInUseError(
              `Port ${options.port} on ${options.host} is already in use (is Pressguard already running?). Set PORT to another port.`,
            )
          : error,
      );
    server.once("error", fail);
    server.listen(options.port, options.host, () => {
      server.off("error", fail);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    update(done, total) {
      Object.assign(progress, { done, total, unit: "records imported" });
    },
    copying(done, total) {
      Object.assign(progress, { done, total, unit: "tables copied from the earlier embedded database" });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function preparingPage(message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<meta name="robots" content="noindex">
<title>Preparing the database | Pressguard</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.5rem}</style>
</head>
<body>
<main>
<h1>Preparing the database</h1>
<p role="status">${message}</p>
<p>This happens once, on the first start. The page reloads by itself.</p>
</main>
</body>
</html>
`;
}
