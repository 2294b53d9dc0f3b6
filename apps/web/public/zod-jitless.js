// Read by zod when it loads (globalThis.__zod_globalConfig), before any schema exists: no compiled
// parsers, so no `new Function` probe, which the Content-Security-Policy (no 'unsafe-eval') would
// report as a violation. Loaded by root.tsx before the application's module scripts (decision 020).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
