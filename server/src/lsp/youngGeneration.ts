/**
 * Imported first by the server's entry (main.ts), for its effect: V8's young generation stays at
 * its initial size instead of doubling whenever enough objects have survived it. V8 grows it to
 * 32 MB for the throughput of short programs; a language server holds every open document, so
 * those survive as a matter of course, and the grown space was a quarter of the server's memory
 * with 200 specs open (SPEC §10: ≤ 80 MB). Measured through the real server over stdio with 200
 * real specs open: ~119 → ~85–93 MB resident; the keystroke on a 33 KB spec unchanged, on 1 MB of
 * specs ~12% slower (more scavenges). See docs/performance.md.
 *
 * `semi_space_growth_factor` is read by V8 each time it would grow the space, so setting it at run
 * time works; a V8 that ignored it would simply grow the space as before.
 */

import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--semi-space-growth-factor=1');
