import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A route's response schema as Fastify hands it over: a zod schema, or one under `properties`. */
function zodSchemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const inner = (schema as { properties?: unknown } | null)?.properties;
  if (inner instanceof z.ZodType) return inner;
  throw new Error(`A response schema must be a zod schema: ${JSON.stringify(schema)}`);
}

/**
 * Answers are checked against their route's response schema and written with only what it
 * declares, as fastify-type-provider-zod's serializer does, but with zod's `parse` rather than
 * its `encode`. Encode is there for codecs, which no response schema here uses. In the
 * server it skips zod's compiled fast path, and it cost `/api/auth/me` 3-5 µs of about 45
 * (docs/decisions/request-path-costs.md). An answer that does not match its schema is still
 * refused as before: `ResponseSerializationError`, answered 500 and logged (plugins/errors.ts).
 * Answers written ahead as text (lib/checked-json.ts) are checked there instead.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  const zodSchema = zodSchemaOf(schema);
  return (data) => {
    const result = zodSchema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
