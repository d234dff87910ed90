/**
 * File-system helpers at the bottom of the pipeline: the dataset root, confined reads of config-
 * like files, atomic writes, safe decoding.
 *
 * @module
 */
export { ConfinedReadError } from "./read_confined.ts";
