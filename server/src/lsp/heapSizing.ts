/**
 * Imported first by the server's entry (main.ts), for its effect: how V8 sizes the heap of a
 * process that holds every open document (SPEC §10: ≤ 80 MB with 200 real specs open). Both
 * flags are read by V8 each time it resizes a space, so setting them at run time works; a V8
 * that ignored them would size the heap as before. Measured through the real server over stdio
 * (`npm run bench -- --only memory,keystroke`; figures in docs/performance.md).
 *
 * - The young generation stays at its initial size instead of doubling whenever enough objects
 *   have survived it. V8 grows it to 32 MB for the throughput of short programs; a language
 *   server holds every open document, so those survive as a matter of course, and the grown
 *   space was a quarter of the server's memory with 200 specs open (~119 → ~85–93 MB).
 *   `dist/server.js` (scripts/launcher.cjs) sets it already before the bundle is read, which
 *   grew it once otherwise (2 MB more); this line covers a server started some other way.
 * - After each full collection the old generation may grow to 1.2 times what survived it before
 *   the next one (`heap_growing_percent`), instead of V8's factor of up to 4 for a small heap that
 *   allocates fast. Opening many documents at once checks each of them, and the garbage of those
 *   checks (promoted, as a check outlives the small young generation) piled up to that limit:
 *   with 200 specs opened, ~114 → ~101 MB resident when all are published. The cost is more
 *   full collections while a burst of checks runs (incremental, mostly on V8's own thread).
 */

import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--semi-space-growth-factor=1');
setFlagsFromString('--heap-growing-percent=20');
