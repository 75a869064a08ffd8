import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import type { Fields, Group, Node, ViewOf } from '../database/read-model';

const TYPES = { string: String, number: Number, boolean: Boolean, object: Object } as const;

/** One class per schema name, shared by every read model that embeds the group (a bid's driver is a ride's). */
const classes = new Map<string, { dto: Type<unknown>; fingerprint: string }>();

function propertyOf(node: Node): ApiPropertyOptions {
  if (node.kind === 'group') {
    return { type: dtoOf(node), ...(node.nullable ? { nullable: true } : {}), ...(node.description ? { description: node.description } : {}) };
  }
  const { type, nullable, ...rest } = node.api;
  return { type: TYPES[type], ...rest, ...(nullable ? { nullable } : {}) } as ApiPropertyOptions;
}

/**
 * The response DTO class of a read model's group, for @ApiOkResponse({ type }) and nested schemas:
 * its OpenAPI properties are the group's fields, in order, typed and documented as declared, so the
 * document cannot drift from what the endpoints send. The class is made once per schema name.
 */
export function dtoOf<F extends Fields>(root: Group<F, boolean>): Type<ViewOf<F>> {
  const properties = Object.entries(root.fields).map(([key, node]) => [key, propertyOf(node)] as const);
  const fingerprint = JSON.stringify(properties, (_key, value: unknown) => (typeof value === 'function' ? value.name : value));
  const known = classes.get(root.name);
  if (known) {
    if (known.fingerprint !== fingerprint) throw new Error(`read-model: two different schemas are named ${root.name}`);
    return known.dto as Type<ViewOf<F>>;
  }
  // A named class: the schema takes its name from the constructor.
  const dto = { [root.name]: class {} }[root.name]!;
  for (const [key, options] of properties) ApiProperty(options)(dto.prototype, key);
  classes.set(root.name, { dto, fingerprint });
  return dto as Type<ViewOf<F>>;
}
