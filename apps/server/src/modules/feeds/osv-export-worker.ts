import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "../../db/client.ts";
import type {
  OsvExportThreadData,
  OsvExportThreadReply,
  OsvExportThreadRequest,
} from "./osv-export-thread.ts";
import { writeOsvExport } from "./osv-export-writer.ts";
import { createFeedService } from "./service.ts";

/** The worker side of `writeOsvExportOffThread`: its own connection, the records read and written here. */
const port = parentPort!;
const { connection, appUrl, target, batchSize, niceness } = workerData as OsvExportThreadData;
const post = (reply: OsvExportThreadReply) => port.postMessage(reply);

let stopped = false;
port.on("message", (request: OsvExportThreadRequest) => {
  if (request.type === "stop") stopped = true;
});

// Linux keeps a nice value per thread, and setpriority(0) sets the calling thread's: the build takes
// what the requests leave of the cores. Elsewhere it would lower the whole server's process.
if (process.platform === "linux" && niceness > 0) setPriority(niceness);

const database = await openDatabase({ url: connection.url, readUrl: connection.readUrl, poolSize: 1 });
try {
  const feeds = createFeedService({ database, appUrl });
  post({ type: "done", written: await writeOsvExport(feeds, target, batchSize, () => stopped) });
} catch (error) {
  post({ type: "error", message: (error as Error).message });
} finally {
  await database.close();
  port.close();
}
