export { buildCatalogue, syntheticSku } from './build-catalogue';
export type { Catalogue, CatalogueCard } from './catalogue.model';
export {
  CATALOGUE_SIZES,
  isCatalogueSize,
  type CatalogueSelection,
  type CatalogueSize,
} from './catalogue-sizes';
export {
  mostValuablePrinting,
  printingRank,
  printingTraits,
  type FoilKind,
  type PrintingTraits,
} from './printing';
