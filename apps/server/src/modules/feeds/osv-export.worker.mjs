// The entry of the OSV export's worker thread (osv-export-thread.ts). Node 20 does not carry tsx's
// loader (`--import tsx`) into worker threads, so the worker registers it before it loads the
// TypeScript that does the work.
import { register } from "tsx/esm/api";

register();
await import("./osv-export-worker.ts");
