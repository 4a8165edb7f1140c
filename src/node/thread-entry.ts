/**
 * Where a worker thread's code is. Run from the TypeScript sources (tests, `tsx`), a module's URL ends in
 * `.ts` and the thread starts at a small `.mjs` shim beside it that registers tsx's loader; run from the
 * production build (scripts/build.mjs), every module is inside a bundle in dist/ and the thread starts at
 * that worker's own bundle, plain JavaScript, beside it.
 */

/** `moduleUrl`: the caller's `import.meta.url`; `shim`: the tsx entry relative to it; `bundle`: the built
 * worker's file name in dist/ (scripts/build.mjs ENTRIES). */
export function threadEntry(moduleUrl: string, shim: string, bundle: string): URL {
  return new URL(moduleUrl.endsWith('.ts') ? shim : `./${bundle}.mjs`, moduleUrl)
}
