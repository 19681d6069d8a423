/**
 * Reading the argument of a `workspace/executeCommand`: an object whose fields are checked before
 * anything runs. A field of the wrong type is malformed, not absent: InvalidParams, nothing done
 * (a `definition: 42` must not be taken for "no definition" and insert a draft).
 */

import { ErrorCodes, ResponseError } from 'vscode-languageserver';

/** The command's one argument, an object. */
export function record(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid('expected one object argument');
  return value as Record<string, unknown>;
}

export function requiredString(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${key} must be a non-empty string`);
  return value;
}

/** A field that may be left out (or null); given, it must be a string. */
export function optionalString(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`${key} must be a string when given`);
  return value;
}

export function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}
