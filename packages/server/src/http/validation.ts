/**
 * Request validation with Ajv. Path parameters and query strings arrive as text, so they are coerced to the types
 * their schemas declare (`/api/files/12` → 12, `?all=true` → true); JSON bodies are typed already and are never
 * coerced, so `{ "property": 1 }` is refused instead of becoming `"1"`. Unknown body fields are refused too.
 *
 * Ajv coerces text with `Number()`, which also reads `1e3`, `0x10` and `0b1`; an integer parameter must be written in
 * decimal digits, so those are refused before Ajv sees them.
 */

import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';

type FastifyValidationResult = ReturnType<FastifySchemaCompiler<unknown>>;

const common: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };

const DECIMAL = /^-?\d+$/;

/** The names of the integer-typed properties of an object schema. */
function integerProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | null)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, s]) => s?.type === 'integer')
    .map(([name]) => name);
}

/** Wraps a text-part validator so that integers must be decimal digits. */
function decimalIntegersOnly(validate: FastifyValidationResult, names: readonly string[]): FastifyValidationResult {
  const wrapped: FastifyValidationResult = (data: unknown) => {
    const record = (data ?? {}) as Record<string, unknown>;
    for (const name of names) {
      const value = record[name];
      if (typeof value === 'string' && !DECIMAL.test(value.trim())) {
        wrapped.errors = [
          {
            keyword: 'type',
            instancePath: `/${name}`,
            schemaPath: `#/properties/${name}/type`,
            params: { type: 'integer' },
            message: 'must be an integer in decimal digits',
          },
        ];
        return false;
      }
    }
    const ok = validate(data);
    wrapped.errors = validate.errors ?? null;
    return ok;
  };
  return wrapped;
}

/** A Fastify validator compiler with coercion for text inputs only. */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = new Ajv({ ...common, coerceTypes: 'array' });
  const strict = new Ajv({ ...common, coerceTypes: false });
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') return strict.compile(schema as object) as FastifyValidationResult;
    const validate = coercing.compile(schema as object) as FastifyValidationResult;
    const names = integerProperties(schema);
    return names.length === 0 ? validate : decimalIntegersOnly(validate, names);
  };
}

/**
 * One message for a failed validation, naming the field and what it may be: the values allowed (an enum, or a
 * union of constants as TypeBox writes literal unions) and the unknown field's name, which Ajv's own messages omit.
 */
export function formatValidationErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const messages: string[] = [];
  const constants = new Map<string, unknown[]>();
  for (const error of errors) {
    const where = `${dataVar}${error.instancePath}`;
    if (error.keyword === 'const') {
      constants.set(where, [...(constants.get(where) ?? []), error.params.allowedValue]);
    } else if (error.keyword === 'anyOf' && constants.has(where)) {
      messages.push(`${where} must be one of ${(constants.get(where) ?? []).map((v) => JSON.stringify(v)).join(', ')}`);
      constants.delete(where);
    } else if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) {
      messages.push(`${where} must be one of ${error.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`);
    } else if (error.keyword === 'additionalProperties') {
      messages.push(`${where} has an unknown field '${String(error.params.additionalProperty)}'`);
    } else if (error.keyword === 'type' && error.instancePath === '' && dataVar === 'body') {
      messages.push(`body must be a JSON ${String(error.params.type)}`);
    } else {
      messages.push(`${where} ${error.message ?? 'is not valid'}`);
    }
  }
  for (const [where] of constants) messages.push(`${where} is not an allowed value`);
  return new Error([...new Set(messages)].join('; '));
}
