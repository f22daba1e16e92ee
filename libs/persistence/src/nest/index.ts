// NestJS wiring, for the apps only (as @tcg/persistence/nest); the rest of the lib is framework-free.
export * from './persistence.module';
