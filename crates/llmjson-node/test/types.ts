// Type checks only (`tsc --noEmit`): a wrong declaration fails the build, not a run.
import { z } from 'zod';
import {
  parse,
  parseAll,
  parseAsync,
  repair,
  extract,
  parseWithRetries,
  Schema,
  LLMJSONError,
  JSONSchemaError,
  RetriesExhausted,
  type ParseResult,
  type Repair,
  type DroppedItem,
  type StreamedToolCall,
} from '../index.js';
import { jsonrepair, JSONRepairError } from '../jsonrepair.js';

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_: T): void {}

const Plan = z.object({ steps: z.array(z.object({ id: z.number(), action: z.string() })) });
const typed = parse('{"steps": []}', { schema: Plan });
assertType<Equal<typeof typed.value, { steps: { id: number; action: string }[] }>>(true);

const untyped = parse('{"a": 1}');
assertType<Equal<typeof untyped.value, unknown>>(true);
const explicit = parse<{ a: number }>('{"a": 1}', { schema: { type: 'object' }, level: 'conservative' });
assertType<Equal<typeof explicit.value, { a: number }>>(true);
const repairs: Repair[] = explicit.repairs;
const span: [number, number] = explicit.span;
const outcome: string = explicit.diagnostics.outcome;
const salvaged = parse('[1, "x"]', { schema: { type: 'array' }, invalidItems: 'drop' });
const dropped: DroppedItem[] = salvaged.dropped;
const droppedPaths: string[] = salvaged.diagnostics.dropped_items.map((d) => d.path);

const later: Promise<ParseResult<{ steps: { id: number; action: string }[] }>> = parseAsync('{}', { schema: Plan });
const all = parseAll('[1] [2]');
assertType<Equal<typeof all.values, unknown[]>>(true);
const text: string = repair("{'a': 1}", { truncation: 'drop' });
const found: { text: string; source: string } = extract('Sure: {"a": 1}');
const fixed: string = jsonrepair('{a: 1}');

async function retries(): Promise<ParseResult<{ steps: { id: number; action: string }[] }> & { attempts: number }> {
  return parseWithRetries(async (feedback) => (feedback === null ? '{"steps": [' : '{"steps": []}'), {
    schema: Plan,
    maxRetries: 1,
  });
}

try {
  parse('');
} catch (error) {
  if (error instanceof JSONSchemaError) {
    const paths: string[] = error.errors.map((e) => e.path);
  } else if (error instanceof RetriesExhausted) {
    const replies: (string | null)[] = [error.lastReply];
  } else if (error instanceof LLMJSONError) {
    const where: number | null = error.line;
    const kind: string = error.kind;
  } else if (error instanceof JSONRepairError) {
    const position: number = error.position;
  }
}

const schema = new Schema({ type: 'object', required: ['a'] });
const ok: boolean = schema.isValid({ a: 1 });
parse('{"a": 1}', { schema });

// @ts-expect-error: an unknown level is a type error.
parse('{}', { level: 'lenient' });
// @ts-expect-error: the reply must be a string.
parse(42);

async function toolCalls(): Promise<StreamedToolCall[] | undefined> {
  let last: StreamedToolCall[] | undefined;
  const chunks = [{ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{}' } }];
  for await (const calls of parseStream(chunks, { tools: {} })) last = calls;
  return last;
}

export { toolCalls };
export { retries, text, found, fixed, repairs, span, outcome, ok, later, dropped, droppedPaths };

// Streaming.
import { createStreamParser, parseStream, type StreamEvent, type Snapshot } from '../index.js';
const streamed = createStreamParser({ schema: Plan });
streamed.feed('{"steps": [');
const snap: Snapshot<{ steps: { id: number; action: string }[] }> = streamed.snapshot();
const firstId: number | undefined = snap.value?.steps?.[0]?.id;
void firstId;
const events: StreamEvent[] = streamed.events();
void events;
const done = streamed.finish();
assertType<Equal<typeof done.value, { steps: { id: number; action: string }[] }>>(true);
async function readAll(): Promise<void> {
  for await (const partial of parseStream(['{"a": 1}'], { level: 'full' })) {
    void partial;
  }
}
void readAll;
