// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside each text file of the web
// build's client directory, which @fastify/static sends as they are (`preCompressed`) to a request
// that accepts them: the best ratio, paid once at build time instead of on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The server compresses nothing smaller (apps/server/src/http/compression.ts). */
const THRESHOLD = 1024;
const TEXT_FILES = /\.(?:js|mjs|css|html|json|svg|txt|xml|webmanifest)$/;

function* textFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(path);
    else if (TEXT_FILES.test(entry.name) && statSync(path).size >= THRESHOLD) yield path;
  }
}

/** Returns the number of files compressed. */
export function precompress(dir) {
  let count = 0;
  for (const path of textFiles(dir)) {
    const content = readFileSync(path);
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
    );
    writeFileSync(`${path}.gz`, gzipSync(content, { level: constants.Z_BEST_COMPRESSION }));
    count += 1;
  }
  return count;
}
