// Request and reply types from a route's `as const` JSON schemas, so that a body is described
// once: fastify validates it with the schema, and TypeScript reads its type from the same schema.
// Types only (json-schema-to-ts is a devDependency): nothing of it runs.
import type { FastifyTypeProvider } from "fastify";
import type { FromSchema, JSONSchema } from "json-schema-to-ts";

/** The type of what `Schema` accepts (its objects stay open to fields it does not name, as Ajv here keeps them). */
export type SchemaType<Schema> = Schema extends JSONSchema ? FromSchema<Schema> : unknown;

/** fastify's type provider on json-schema-to-ts, as @fastify/type-provider-json-schema-to-ts defines it. */
export interface JsonSchemaToTsProvider extends FastifyTypeProvider {
  readonly validator: SchemaType<this["schema"]>;
  readonly serializer: SchemaType<this["schema"]>;
}
