import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { pureDeclarations } from "./scripts/pure-declarations.mjs";

export default defineConfig({
  publicDir: "apps/web/public",
  plugins: [
    tailwindcss(),
    reactRouter(),
    // A page keeps only the domain constants it reads, and no zod when it reads no schema (issue 35).
    pureDeclarations((id) => id.includes("/packages/domain/src/") && !id.includes(".test.")),
  ],
  // The server build imports the domain package at run time instead of bundling a copy: the server
  // loads it too, and two copies register every `.meta({ id })` schema twice in zod's global
  // registry, which breaks the OpenAPI document ("Duplicate schema id") once the web build is loaded.
  environments: { ssr: { build: { rollupOptions: { external: ["@pressguard/domain"] } } } },
  build: {
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // React, React DOM, React Router and TanStack Query: every page that hydrates loads all
              // of them, so one file instead of a dozen (each file compressed alone costs bytes, and a
              // request). Issue 35: 5 KB less of gzipped JavaScript on each form page.
              // The web app's `Link` (ui/link.tsx), React Router's link on every hydrated page, goes with
              // it: in a file of its own, every chunk that renders a link imported one more file.
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]|[\\/]app[\\/]ui[\\/]link\.tsx$/,
            },
            {
              // The web app's modules that a dozen route modules or more import (the layouts' frames,
              // header, error screen, form fields, API client…): one file instead of the two dozen small
              // chunks the bundler makes of them by which routes import each. Each file compressed alone
              // loses what it shares with the others (the same class lists and imports): the report form
              // went from 133.9 to 129.6 KB of brotli in 46 → 20 files (issue 35). Below about ten, modules
              // that only a few pages use (the Markdown renderer's users) would come with every page.
              name: "app-common",
              test: /[\\/]apps[\\/]web[\\/]app[\\/]/,
              minShareCount: 12,
            },
          ],
        },
      },
      // packageurl-js (the domain's purl builder, used by the server only) declares no sideEffects, so the
      // browser bundle kept it whole through the domain's barrel: 8 KB more on every form page.
      treeshake: { moduleSideEffects: (id) => !id.includes("/node_modules/packageurl-js/") },
    },
  },
});
