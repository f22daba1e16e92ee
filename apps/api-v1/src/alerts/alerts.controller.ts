import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyAuth } from '@tcg/http-service';
import { ApiErrorResponses } from '../common/decorators/api-docs.decorator';
import { CallerKey } from '../common/decorators/caller-key.decorator';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { AlertsService } from './alerts.service';
import {
  AlertListResponseDto,
  AlertResponseDto,
  CreatedAlertResponseDto,
  DeliveryAttemptsResponseDto,
} from './dto/alert.dto';
import { CreateAlertDto } from './dto/create-alert.schema';

/** Price alerts by signed webhook (docs/alerts.md): a key's own, never cached, metered like any request. */
@ApiTags('alerts')
@ApiKeyAuth()
@Controller('v1/alerts')
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Post()
  @Header('Cache-Control', 'no-store')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createAlert',
    summary: 'Watch a price: an event is POSTed to `url` when the rule becomes true',
    description:
      "Evaluated after each import or feed sync; fires when the rule becomes true (not again while it stays true). Events are signed as Standard Webhooks specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the secret in this answer, and retried with growing gaps for 24 h. Plans cap a key's alerts (free 5, starter 50, professional 500, enterprise 5,000).",
  })
  @ApiBody({ type: CreateAlertDto })
  @ApiCreatedResponse({
    type: CreatedAlertResponseDto,
    description: 'The alert, with its signing secret (shown once).',
  })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async create(
    @Body() body: unknown,
    @CallerKey() keyId: string,
    @Usage() usage: UsageMetadataDto,
  ): Promise<CreatedAlertResponseDto> {
    return { data: await this.alerts.create(body, keyId, usage), _metadata: usage };
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ operationId: 'listAlerts', summary: "The key's alerts" })
  @ApiOkResponse({ type: AlertListResponseDto })
  @ApiErrorResponses(401, 429)
  async list(@CallerKey() keyId: string, @Usage() usage: UsageMetadataDto): Promise<AlertListResponseDto> {
    return { data: await this.alerts.list(keyId), _metadata: usage };
  }

  @Get(':id')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ operationId: 'getAlert', summary: 'One alert, with whether its rule holds and its status' })
  @ApiOkResponse({ type: AlertResponseDto })
  @ApiErrorResponses(401, 404, 429)
  async get(
    @Param('id') id: string,
    @CallerKey() keyId: string,
    @Usage() usage: UsageMetadataDto,
  ): Promise<AlertResponseDto> {
    return { data: await this.alerts.get(keyId, id), _metadata: usage };
  }

  @Delete(':id')
  @Header('Cache-Control', 'no-store')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteAlert', summary: 'Delete an alert: nothing more is sent for it' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrorResponses(401, 404, 429)
  async delete(@Param('id') id: string, @CallerKey() keyId: string): Promise<void> {
    await this.alerts.delete(keyId, id);
  }

  @Get(':id/deliveries')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ operationId: 'listAlertDeliveries', summary: "The alert's last 50 delivery attempts" })
  @ApiOkResponse({ type: DeliveryAttemptsResponseDto })
  @ApiErrorResponses(401, 404, 429)
  async deliveries(
    @Param('id') id: string,
    @CallerKey() keyId: string,
    @Usage() usage: UsageMetadataDto,
  ): Promise<DeliveryAttemptsResponseDto> {
    return { data: await this.alerts.deliveries(keyId, id), _metadata: usage };
  }
}
