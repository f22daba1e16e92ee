import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { BaseEnvironment } from './environment';

/**
 * An app's configuration, for every module of it: its environment, read from the process and
 * validated once when the app is created, then frozen. It is provided under the app's own class
 * and under each class that class extends, so that a consumer asks by type for the part it knows
 * (`constructor(private readonly env: Environment)`, a lib `BaseEnvironment`) and reads typed
 * fields rather than string keys. A variable that fails validation stops the boot, named.
 */
@Global()
@Module({})
export class EnvironmentModule {
  static forApp<T extends BaseEnvironment>(
    type: Type<T>,
    validate: (raw: Record<string, unknown>) => T,
  ): DynamicModule {
    const [, ...bases] = lineage(type);
    return {
      module: EnvironmentModule,
      providers: [
        // The one place the process's environment is read.
        { provide: type, useFactory: () => Object.freeze(validate(process.env)) },
        ...bases.map((base) => ({ provide: base, useExisting: type })),
      ],
      exports: [type, ...bases],
    };
  }
}

/** `type`, then each class it extends up to BaseEnvironment, which is last. */
function lineage(type: Type<BaseEnvironment>): Type<BaseEnvironment>[] {
  if (type !== BaseEnvironment && !(type.prototype instanceof BaseEnvironment))
    throw new Error(`${type.name} does not extend BaseEnvironment`);
  const classes = [type];
  let current = type;
  while (current !== BaseEnvironment) {
    current = Object.getPrototypeOf(current) as Type<BaseEnvironment>;
    classes.push(current);
  }
  return classes;
}
