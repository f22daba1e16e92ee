import { InjectionToken, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiSecurity, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI security scheme of the `x-api-key` header, registered by `createOpenApiDocument`. */
export const API_KEY_SCHEME = 'x-api-key';

/** The route needs the caller's `x-api-key` (the gateway checks it before the request arrives). */
export const ApiKeyAuth = (): ClassDecorator & MethodDecorator => ApiSecurity(API_KEY_SCHEME);

/** What a service's OpenAPI document says of itself; the rest comes from its controllers. */
export interface OpenApiDocumentOptions {
  readonly title: string;
  readonly description: string;
  readonly version: string;
  /** Each tag's name and description, in the order the document lists them. */
  readonly tags: readonly (readonly [name: string, description: string])[];
  /** Every controller of the app; each app's spec checks that none is missing. */
  readonly controllers: readonly Type[];
  /** What the controllers inject: stand-ins take their place, nothing is called. */
  readonly injected: readonly InjectionToken[];
}

@Module({})
class OpenApiDocumentModule {}

/**
 * A service's OpenAPI document, read from its controllers' decorators alone: their services are
 * stand-ins, so building it needs no database or configuration (an app's AppModule connects to
 * PostgreSQL). Paths are as the gateway exposes them; clients call the gateway with their
 * `x-api-key`.
 */
export async function createOpenApiDocument(options: OpenApiDocumentOptions): Promise<OpenAPIObject> {
  const app = await NestFactory.create(
    {
      module: OpenApiDocumentModule,
      controllers: [...options.controllers],
      providers: options.injected.map((token) => ({ provide: token, useValue: {} })),
    },
    { logger: false },
  );
  try {
    const builder = new DocumentBuilder()
      .setTitle(options.title)
      .setDescription(options.description)
      .setVersion(options.version);
    for (const [name, description] of options.tags) builder.addTag(name, description);
    builder.addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your API key.' },
      API_KEY_SCHEME,
    );
    return SwaggerModule.createDocument(app, builder.build());
  } finally {
    await app.close();
  }
}
