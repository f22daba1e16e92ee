import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiKeyRecord } from '@tcg/domain';
import { hashApiKey, TypeOrmApiKeyRepository } from '@tcg/persistence';
import { DataSource } from 'typeorm';

const MAX_ENTRIES = 50_000;

/**
 * Key lookups with a short cache, so a request does not cost a database round trip. Unknown keys
 * are cached too (a flood of guesses does not reach PostgreSQL). A revoked key stops working when
 * its entry expires — within KEY_CACHE_TTL_MS on every gateway instance.
 */
@Injectable()
export class ApiKeyCache {
  private readonly repo: TypeOrmApiKeyRepository;
  private readonly ttlMs: number;
  private readonly entries = new Map<string, { expires: number; record: Promise<ApiKeyRecord | null> }>();

  constructor(ds: DataSource, @Inject(ConfigService) config: ConfigService) {
    this.repo = new TypeOrmApiKeyRepository(ds);
    this.ttlMs = config.getOrThrow<number>('KEY_CACHE_TTL_MS');
  }

  lookup(clearKey: string): Promise<ApiKeyRecord | null> {
    const id = hashApiKey(clearKey).toString('base64');
    const now = Date.now();
    const hit = this.entries.get(id);
    if (hit && hit.expires > now) return hit.record;
    // Concurrent lookups of one key share a single query.
    const record = this.repo.findActiveByKey(clearKey);
    this.entries.delete(id);
    this.entries.set(id, { expires: now + this.ttlMs, record });
    record.catch(() => this.entries.delete(id));
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return record;
  }
}
