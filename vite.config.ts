import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  publicDir: "apps/web/public",
  plugins: [tailwindcss(), reactRouter()],
  // The server build imports the domain package at run time instead of bundling a copy: the server
  // loads it too, and two copies register every `.meta({ id })` schema twice in zod's global
  // registry, which breaks the OpenAPI document ("Duplicate schema id") once the web build is loaded.
  environments: { ssr: { build: { rollupOptions: { external: ["@pressguard/domain"] } } } },
  // packageurl-js (the domain's purl builder, used by the server only) declares no sideEffects, so the
  // browser bundle kept it whole through the domain's barrel: 8 KB more on every form page.
  build: {
    rollupOptions: { treeshake: { moduleSideEffects: (id) => !id.includes("/node_modules/packageurl-js/") } },
  },
});
