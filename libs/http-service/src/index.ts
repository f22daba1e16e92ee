export * from './lib/configure-service';
export * from './lib/environment';
export * from './lib/internal-credential.middleware';
export * from './lib/reject-nul.middleware';
export * from './lib/request-body-error';
export * from './lib/request-target-limit.middleware';
export * from './lib/run-service';
export * from './lib/log-levels';
