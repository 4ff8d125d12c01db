/**
 * Request validation with Ajv. Path parameters and query strings arrive as text, so they are coerced to the types
 * their schemas declare (`/api/files/12` → 12, `?all=true` → true); JSON bodies are typed already and are never
 * coerced, so `{ "property": 1 }` is refused instead of becoming `"1"`. Unknown body fields are refused too.
 */

import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

const common: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };

/** A Fastify validator compiler with coercion for text inputs only. */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = new Ajv({ ...common, coerceTypes: 'array' });
  const strict = new Ajv({ ...common, coerceTypes: false });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
