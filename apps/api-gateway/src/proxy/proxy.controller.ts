import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import { ProxyService, Upstream } from './proxy.service';

/** Routes `/v1/*` to api-v1 and `/v2/*` to api-v2, behind the key and quota checks. */
@Controller()
export class ProxyController {
  private readonly v1: Upstream;
  private readonly v2: Upstream;

  constructor(
    private readonly proxy: ProxyService,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.v1 = { name: 'api-v1', url: new URL(config.getOrThrow<string>('API_V1_URL')) };
    this.v2 = { name: 'api-v2', url: new URL(config.getOrThrow<string>('API_V2_URL')) };
  }

  @All(['v1', 'v1/*path'])
  v1Route(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.proxy.handle(req, res, this.v1);
  }

  @All(['v2', 'v2/*path'])
  v2Route(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.proxy.handle(req, res, this.v2);
  }
}
