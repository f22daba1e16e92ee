import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { loadPageCatalogue } from './page-catalogue';
import { PAGE_CATALOGUE, PAGE_WRITE_IDLE_MS, PagesController } from './pages.controller';

@Module({
  controllers: [PagesController],
  providers: [
    {
      provide: PAGE_CATALOGUE,
      inject: [ConfigService],
      useFactory: (config: ConfigService) =>
        loadPageCatalogue({ prefillKey: config.get<string>('EXPLORER_API_KEY') }),
    },
    {
      provide: PAGE_WRITE_IDLE_MS,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => config.getOrThrow<number>('WRITE_IDLE_TIMEOUT_MS'),
    },
  ],
})
export class PagesModule {}
