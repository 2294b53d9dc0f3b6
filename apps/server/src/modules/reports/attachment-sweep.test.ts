import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { createUploadSpool, PARTIAL_UPLOAD_MAX_IDLE_MS } from "./attachments.ts";

/** Issue 15, finding 6: a kill during an upload left `.upload-<uuid>` files that nothing removed. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function attachmentsDir() {
  const dir = mkdtempSync(join(tmpdir(), "pressguard-sweep-"));
  dirs.push(dir);
  return dir;
}

/** A file under `dir/{report}/` (or `dir/` itself when `reportId` is null), last written `ageMs` ago. */
function fileAged(dir: string, reportId: string | null, name: string, ageMs: number) {
  const folder = reportId ? join(dir, reportId) : dir;
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  writeFileSync(path, "partial bytes");
  const at = new Date(Date.now() - ageMs);
  utimesSync(path, at, at);
  return path;
}

describe("partial uploads", () => {
  it("are swept when left idle by a killed process, while live uploads and stored files stay", async () => {
    const dir = attachmentsDir();
    const report = randomUUID();
    const abandoned = fileAged(dir, null, `.upload-${randomUUID()}`, PARTIAL_UPLOAD_MAX_IDLE_MS + 60_000);
    // Where versions before decision 022 spooled an upload: in the report's folder.
    const abandonedBefore = fileAged(dir, report, `.upload-${randomUUID()}`, PARTIAL_UPLOAD_MAX_IDLE_MS * 2);
    const live = fileAged(dir, null, `.upload-${randomUUID()}`, 1_000);
    const stored = fileAged(dir, report, randomUUID(), PARTIAL_UPLOAD_MAX_IDLE_MS * 10);

    expect(await createUploadSpool(dir).sweepPartialUploads()).toBe(2);
    expect([
      existsSync(abandoned),
      existsSync(abandonedBefore),
      existsSync(live),
      existsSync(stored),
    ]).toEqual([false, false, true, true]);
  });

  it("are swept when the server starts", async () => {
    const dir = attachmentsDir();
    const abandoned = fileAged(dir, null, `.upload-${randomUUID()}`, PARTIAL_UPLOAD_MAX_IDLE_MS * 2);
    const harness = await createTestApp({ ATTACHMENTS_DIR: dir });
    try {
      expect(existsSync(abandoned)).toBe(false);
    } finally {
      await harness.close();
    }
    // Building an app migrates a new database: slower than a test's default budget on a busy machine.
  }, 120_000);

  it("are removed when the upload fails midway", async () => {
    const dir = attachmentsDir();
    const cut = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024, 1));
        this.destroy(new Error("connection reset"));
      },
    });
    await expect(createUploadSpool(dir).receive(cut)).rejects.toThrow("connection reset");
    expect(await createUploadSpool(dir).sweepPartialUploads(0)).toBe(0);
  });
});
