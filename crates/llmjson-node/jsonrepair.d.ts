// jsonrepair's API, served by llmjson: `import { jsonrepair, JSONRepairError } from 'llmjson/jsonrepair'`.

/** Repairs the JSON in `text` and returns it as JSON text (valid JSON comes back as given). */
export function jsonrepair(text: string): string;

export class JSONRepairError extends Error {
  /** Where the text could not be repaired (a JavaScript string index). */
  readonly position: number;
  constructor(message: string, position: number);
}
