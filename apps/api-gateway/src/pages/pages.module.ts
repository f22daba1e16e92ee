import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { loadPageCatalogue } from './page-catalogue';
import { PAGE_CATALOGUE, PagesController } from './pages.controller';

@Module({
  controllers: [PagesController],
  providers: [
    {
      provide: PAGE_CATALOGUE,
      inject: [ConfigService],
      useFactory: (config: ConfigService) =>
        loadPageCatalogue({ prefillKey: config.get<string>('EXPLORER_API_KEY') }),
    },
  ],
})
export class PagesModule {}
