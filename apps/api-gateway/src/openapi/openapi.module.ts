import { Module } from '@nestjs/common';
import { LlmsTxtController } from './llms-txt.controller';
import { OpenApiController } from './openapi.controller';

@Module({ controllers: [OpenApiController, LlmsTxtController] })
export class OpenApiModule {}
