import { Module } from '@nestjs/common';
import { Environment } from '../config/environment';
import { loadPageCatalogue } from './page-catalogue';
import { PAGE_CATALOGUE, PagesController } from './pages.controller';

@Module({
  controllers: [PagesController],
  providers: [
    {
      provide: PAGE_CATALOGUE,
      inject: [Environment],
      useFactory: (env: Environment) => loadPageCatalogue({ prefillKey: env.EXPLORER_API_KEY }),
    },
  ],
})
export class PagesModule {}
