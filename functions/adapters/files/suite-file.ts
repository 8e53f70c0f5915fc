/**
 * A suite read from a file, the one reader every root uses (`ragwatch run`, `calibrate`, `suite normalize` and the
 * Lambda's bundled suite): bytes, then UTF-8 text, then the suite validated by core. Any failure is an InputError
 * naming the file.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '../../core/shared/errors.ts';
import { parseSuite, type Suite } from '../../core/suite/suite.ts';
import { decodeUtf8 } from '../../core/suite/utf8.ts';
import { unreadableInput } from './errors.ts';

/** A suite file's text; an InputError naming the file when it is missing, unreadable or not UTF-8. */
export async function readSuiteText(file: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw unreadableInput(file, error);
  }
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) throw new InputError(file, [decoded.problem]);
  return decoded.text;
}

/** Reads and validates a suite file (JSON, or YAML when it ends in .yaml/.yml). */
export async function loadSuiteFile(file: string): Promise<Suite> {
  return parseSuite(await readSuiteText(file), file);
}
