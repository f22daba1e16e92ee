import { All, Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ProxyService } from './proxy.service';

/**
 * `/v1/*` goes to api-v1 and `/v2/*` to api-v2, behind the key and quota checks. Express routes
 * case-sensitively and strictly here (configureApp), and the proxy takes the service from the same
 * guarded target that sets the cost, so these routes only decide that a request is proxied. The
 * gateway's request listener serves the same routes itself, ahead of Express, for every path
 * without percent-escapes (`servedByProxyRoute`): these routes get the others.
 */
@Controller()
export class ProxyController {
  constructor(private readonly proxy: ProxyService) {}

  @All(['v1', 'v1/*path'])
  v1Route(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.proxy.handle(req, res);
  }

  @All(['v2', 'v2/*path'])
  v2Route(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.proxy.handle(req, res);
  }
}
