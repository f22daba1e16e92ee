import { NotFoundException } from '@nestjs/common';
import type { Response } from 'express';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Environment } from '../config/environment';
import { OpenApiController } from './openapi.controller';

describe('OpenApiController', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tcg-openapi-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const controller = () => new OpenApiController(Object.assign(new Environment(), { OPENAPI_DIR: dir }));

  it('sends a document as read at start, and 404 for one that is missing', () => {
    writeFileSync(join(dir, 'api-v1.json'), '{"openapi":"3.0.0"}');
    const sent: { status?: number; headers: Record<string, string>; body?: Buffer } = { headers: {} };
    const res = {
      status(code: number) {
        sent.status = code;
        return this;
      },
      setHeader(name: string, value: string) {
        sent.headers[name] = value;
        return this;
      },
      end(body: Buffer) {
        sent.body = body;
      },
      // The write-idle deadline's hooks: this response is taken at once ('finish' before them).
      writableFinished: true,
      on() {
        return this;
      },
      once() {
        return this;
      },
    } as unknown as Response;
    const served = controller();
    writeFileSync(join(dir, 'api-v1.json'), '{"changed":true}'); // read at start: not this
    served.v1(res);
    expect(sent.status).toBe(200);
    expect(sent.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(sent.body?.toString()).toBe('{"openapi":"3.0.0"}');
    expect(() => served.v2(res)).toThrow(NotFoundException);
  });
});
