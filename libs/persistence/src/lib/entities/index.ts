import { ApiKeyEntity } from './api-key.entity';
import { CardEntity } from './card.entity';
import { GameEntity } from './game.entity';
import { PlanEntity } from './plan.entity';
import { SetEntity } from './set.entity';
import { VariantEntity } from './variant.entity';

export { ApiKeyEntity, CardEntity, GameEntity, PlanEntity, SetEntity, VariantEntity };
export const ENTITIES = [GameEntity, SetEntity, CardEntity, VariantEntity, PlanEntity, ApiKeyEntity];
