import { applyDecorators, type Type } from '@nestjs/common';
import { ApiProperty, ApiQuery } from '@nestjs/swagger';
import { abbreviate, invalidParameter } from '@tcg/domain';
import type { Param, ParamValue } from './params';
import type { QueryParams } from './query-values';

/** A request's parameters by name, in the order the document lists them. */
export type Params = Readonly<Record<string, Param<unknown>>>;

/** What a schema parses to: each parameter's name to what it reads to. */
export type Parsed<P extends Params> = { readonly [K in keyof P]: ParamValue<P[K]> };

/** What a RequestSchema parses to. */
export type ParsedBy<S> = S extends RequestSchema<infer P> ? Parsed<P> : never;

export interface SchemaOptions {
  /**
   * A parameter the schema does not declare: ignored (v1, lenient) or a 400 listing the ones
   * there are (v2, strict; docs/spec/decisions.md).
   */
  readonly unknown: 'ignore' | 'reject';
}

/**
 * One request's parameters, declared once: `parse` validates and types a query (or a body
 * object), `document` writes the same declarations as the OpenAPI parameters, and `Parsed`
 * derives the parsed type. Each parameter is read at most once, in linear time and within the
 * caps of QUERY_LIMITS, before anything else sees it.
 */
export class RequestSchema<P extends Params> {
  /** Every parameter's name, in declaration order. */
  readonly names: readonly (keyof P & string)[];
  private readonly byName: ReadonlyMap<string, Param<unknown>>;
  /** Every parameter's value when the request does not send it, where that is a constant. */
  private readonly template: Readonly<Record<string, unknown>>;
  /** The parameters whose absence `read` must see (a required one refuses it). */
  private readonly unsettled: readonly (keyof P & string)[];

  constructor(
    readonly params: P,
    private readonly options: SchemaOptions,
  ) {
    this.names = Object.keys(params) as (keyof P & string)[];
    this.byName = new Map(this.names.map((name) => [name, params[name]!]));
    this.template = Object.fromEntries(this.names.map((name) => [name, params[name]!.absent?.value]));
    this.unsettled = this.names.filter((name) => params[name]!.absent === undefined);
  }

  /**
   * The parameters of `source`, each read by its declaration; `prefix` goes before a parameter's
   * name in errors where the source is a part of a larger request (`item 3.` for `item 3.cardId`).
   * The loop runs over what the request sent, not over what the route declares: a lookup sends
   * three of GET /v1/cards' 23 parameters, and the others' values are copied from `template`.
   */
  parse(source: QueryParams, prefix = ''): Parsed<P> {
    const parsed: Record<string, unknown> = { ...this.template };
    for (const name of Object.keys(source)) {
      const param = this.byName.get(name);
      if (param === undefined) {
        if (this.options.unknown === 'reject') throw this.unknownParameter(name, source[name]);
        continue;
      }
      const value = source[name];
      if (value !== undefined) parsed[name] = param.read(value, prefix + name);
    }
    for (const name of this.unsettled)
      if (source[name] === undefined) parsed[name] = this.params[name]!.read(undefined, prefix + name);
    return parsed as Parsed<P>;
  }

  /** The same request with only these parameters, in this order (a route that takes fewer). */
  pick<K extends keyof P & string>(
    names: readonly K[],
    options: SchemaOptions = this.options,
  ): RequestSchema<Pick<P, K>> {
    const params = {} as Pick<P, K>;
    for (const name of names) params[name] = this.params[name];
    return new RequestSchema(params, options);
  }

  /** The OpenAPI query parameters of a route that reads this schema from its query string. */
  document(): MethodDecorator & ClassDecorator {
    return applyDecorators(
      ...this.names.map((name) => {
        const { required = false, ...doc } = this.params[name]!.doc;
        return ApiQuery({ name, required, ...doc });
      }),
    );
  }

  /**
   * A class that documents an object of these parameters as an OpenAPI component named `name`
   * (a body's items): the document refers to it by `$ref`, as it would to a DTO class.
   */
  model(name: string): Type<unknown> {
    const model = { [name]: class {} }[name]!;
    for (const field of this.names) {
      const { required = false, style: _style, explode: _explode, schema, ...doc } = this.params[field]!.doc;
      ApiProperty({ required, ...schema, ...doc } as Parameters<typeof ApiProperty>[0])(
        model.prototype,
        field,
      );
    }
    return model;
  }

  private unknownParameter(name: string, value: unknown): Error {
    return invalidParameter(
      abbreviate(name),
      abbreviate(String(value)),
      `no such parameter; the parameters are ${this.names.join(', ')}`,
    );
  }
}

/** The schema of a request's parameters; see RequestSchema. */
export function requestSchema<const P extends Params>(params: P, options: SchemaOptions): RequestSchema<P> {
  return new RequestSchema(params, options);
}
