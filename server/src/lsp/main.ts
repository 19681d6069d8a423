/**
 * Entry of `spec-glossary-language-server`: creates the connection (`--stdio`, `--node-ipc`,
 * `--socket=<port>` or `--pipe=<name>`), routes console output to it, keeps stray errors from
 * killing the process and starts the server.
 */

// (First: it sets how V8 sizes the heap, before the rest is loaded.)
import './heapSizing';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { describeError } from './logger';
import { startServer } from './server';

declare const SPEC_GLOSSARY_VERSION: string | undefined;
const VERSION = typeof SPEC_GLOSSARY_VERSION === 'string' ? SPEC_GLOSSARY_VERSION : 'dev';
const USAGE = 'Usage: spec-glossary-language-server --stdio | --node-ipc | --socket=<port> | --pipe=<name>';

const argv = process.argv.slice(2);
if (argv.includes('--version') || argv.includes('-v')) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

function connect() {
  try {
    // The transport (--stdio, --node-ipc, --socket, --pipe) is read from the arguments by the library.
    return createConnection(ProposedFeatures.all);
  } catch (error) {
    process.stderr.write(`spec-glossary-language-server: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}
const connection = connect();

const log = connection.console;
console.log = (...args: unknown[]) => log.log(args.map(String).join(' '));
console.info = (...args: unknown[]) => log.info(args.map(String).join(' '));
console.warn = (...args: unknown[]) => log.warn(args.map(String).join(' '));
console.error = (...args: unknown[]) => log.error(args.map(String).join(' '));
// Nothing may write to stdout but the connection (the library's own console patch applies only
// when it opens stdio itself).
console.debug = console.trace = (...args: unknown[]) => log.log(args.map(String).join(' '));
console.dir = (value: unknown) => log.log(String(value));
process.on('unhandledRejection', (reason) => log.error(`unhandled promise rejection: ${describeError(reason)}`));
process.on('uncaughtException', (error) => log.error(`uncaught exception: ${describeError(error)}`));

startServer(connection, { version: VERSION });
